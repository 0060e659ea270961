import { afterEach, beforeEach, vi } from 'vitest';
import { configureApi } from '@/lib/api/client';
import type { Decision, Session } from '@/lib/api/types';
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
