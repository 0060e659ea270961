import { afterEach, beforeEach, vi } from 'vitest';
import { configureApi } from '@/lib/api/client';
import type { Decision, Document, FieldDefinition, PaymentPlan, Session } from '@/lib/api/types';
import { flow } from '@/stores/flow';

/** decision is a lender's answer as the API sends it, with nothing stipulated. */
export function decision(providerKey: string, responseCode: Decision['responseCode'], over: Partial<Decision> = {}): Decision {
  return {
    providerKey,
    operation: 'prequalify',
    responseCode,
    approvedAmountCents: 0,
    stipulations: [],
    pendingReasons: [],
    downPaymentRequired: false,
    existingAccount: false,
    ...over,
  };
}

/**
 * withLiveSession gives every test of the file a live session at lender "a"
 * (prequalify), an API client wired to it, and real timers and fetch again
 * afterwards.
 */
export function withLiveSession(): void {
  beforeEach(() => {
    configureApi({ getSessionId: () => 's1', navigate: vi.fn(), onValidation: vi.fn(), currentPath: () => '/p' });
    flow.reset();
    flow.set({ session: { webSessionId: 's1' } as Session, providerKey: 'a', primaryProviderKey: 'a', applyMode: 'prequalify' });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });
}

/** fixedRatePlan is a 24-month fixed-rate plan financing $4,500 at providerKey. */
export function fixedRatePlan(providerKey: string, over: Partial<PaymentPlan> = {}): PaymentPlan {
  return {
    providerKey,
    typeId: 'fixed_rate',
    providerPlanCode: 'FR24',
    durationMonths: 24,
    monthlyAmountCents: 22_500,
    totalCostCents: 540_000,
    apr: 17.9,
    promoApr: 0,
    description: '',
    expireDateTime: '2030-01-01T00:00:00Z',
    minAmountCents: 20_000,
    maxAmountCents: 2_500_000,
    amountFinancedCents: 450_000,
    downPaymentCents: 0,
    ...over,
  } as PaymentPlan;
}

/** monthsEmployed is the whole-number field of a full application. */
export const monthsEmployed: FieldDefinition = {
  id: 'monthsEmployed',
  path: 'monthsEmployed',
  name: 'monthsEmployed',
  label: 'Months with this employer',
  type: 'number',
  rules: { required: {} },
};

/** withMonthsField loads lender "a"'s prequalify form holding only monthsEmployed. */
export function withMonthsField(): void {
  flow.fieldsLoaded('a:prequalify', {
    providerKey: 'a',
    applyMode: 'prequalify',
    fields: [monthsEmployed],
    fieldGroupRules: [],
    providers: [],
  } as never);
}

/** textDocument is a lender's plain-text document as the server sends one: its words are "{title} text", its hash named after its id. */
export function textDocument(id: string, title: string, over: Partial<Document> = {}): Document {
  return { id, version: '1', title, contentType: 'text/plain', content: `${title} text`, language: 'en', sha256: `sha-${id}`, ...over };
}
