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
    flow.set({ session: { webSessionId: 's1' } as Session, providerKey: 'a', primaryLenderKey: 'a', applyMode: 'prequalify' });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });
}

/**
 * tally completes a plan's totals from its schedule, as the server's money
 * engine states them (api/openapi.yaml, PaymentPlan): the total of payments
 * is the schedule's sum, the finance charge what it pays beyond the amount
 * financed (none for a lease), the total cost the down payment plus the
 * payments. Totals given in `over` are kept as given.
 */
function tally(p: PaymentPlan, over: Partial<PaymentPlan>): PaymentPlan {
  const total = p.monthlyAmountCents * (p.paymentCount - 1) + p.finalPaymentCents;
  const financeChargeCents = p.productType === 'lease' ? 0 : total - p.amountFinancedCents;
  return { ...p, totalOfPaymentsCents: total, financeChargeCents, totalCostCents: p.downPaymentCents + total, ...over };
}

/**
 * fixedRatePlan is a 24-month fixed-rate plan financing $4,500 at 17.90 %
 * at providerKey: 23 payments of $224.44 and a final one of $224.47, the
 * schedule of money/schedule.go's Level. Overriding the term or the payment
 * gives that many equal payments, the totals following.
 */
export function fixedRatePlan(providerKey: string, over: Partial<PaymentPlan> = {}): PaymentPlan {
  const months = over.durationMonths ?? 24;
  const monthly = over.monthlyAmountCents ?? 22_444;
  const level = over.durationMonths === undefined && over.monthlyAmountCents === undefined;
  const plan = {
    providerKey,
    typeId: 'fixed_rate',
    providerPlanCode: 'FR24',
    durationMonths: months,
    paymentCount: months,
    monthlyAmountCents: monthly,
    finalPaymentCents: level ? 22_447 : monthly,
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
  return tally(plan, over);
}

/** deferredPlan is a 12-month deferred-interest promotion on $4,500: twelve suggested payments of $375.00, 26.99 % if not paid in full in time. */
export function deferredPlan(providerKey: string, over: Partial<PaymentPlan> = {}): PaymentPlan {
  return fixedRatePlan(providerKey, {
    typeId: 'deferred_interest',
    providerPlanCode: 'DI12',
    durationMonths: 12,
    monthlyAmountCents: 37_500,
    apr: 26.99,
    ...over,
  });
}

/** leasePlan is Snap's lease of a $2,000.00 cash price: twelve payments of $308.34, $3,700.08 in all. */
export function leasePlan(providerKey: string, over: Partial<PaymentPlan> = {}): PaymentPlan {
  return fixedRatePlan(providerKey, {
    typeId: 'fixed_installment_loan',
    providerPlanCode: 'SNP-LTO-12',
    productType: 'lease',
    durationMonths: 12,
    monthlyAmountCents: 30_834,
    apr: 0,
    amountFinancedCents: 200_000,
    ...over,
  });
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
    lenders: [],
  } as never);
}

/** textDocument is a lender's plain-text document as the server sends one: its words are "{title} text", its hash named after its id. */
export function textDocument(id: string, title: string, over: Partial<Document> = {}): Document {
  return { id, version: '1', title, contentType: 'text/plain', content: `${title} text`, language: 'en', sha256: `sha-${id}`, ...over };
}
