import type { LenderConfig } from './api/types';

/**
 * lenderKeyOf answers the key a catalogue entry (apply/start's `providers`)
 * names its lender by: providerKey, or the providerId of answers that have
 * none. The store's catalogue (stores/flow.ts, fieldsLoaded) and the words a
 * link's page draws before the app (lib/firstWords.ts) look lenders up by it.
 */
export function lenderKeyOf(p: LenderConfig): string | undefined {
  return p.providerKey ?? p.providerId;
}
