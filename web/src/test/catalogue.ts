import type { LenderConfig } from '@/lib/api/types';
import { flow } from '@/stores/flow';

/** lender answers a catalogue entry as the server sends it in apply/start (only the name and key matter to most tests). */
export function lender(providerKey: string, name: string, over: Partial<LenderConfig> = {}): LenderConfig {
  const id = providerKey.split('_')[0]!;
  return {
    providerKey,
    providerId: id,
    name,
    financingName: `${name} Card`,
    abbreviatedName: name,
    fundingName: `${name} Card`,
    fundingSourceDescription: '',
    kind: 'promotional_card',
    creditType: 'revolving_credit',
    logo: `/logos/${id}.svg`,
    paymentCalculatorButtonsHidden: false,
    paymentCalculatorRecalculatingModal: false,
    autoShowLearnHowDrawer: false,
    fetchPaymentPlansOnPreAuth: true,
    fetchPaymentPlansOnResume: false,
    fetchPaymentPlansOnFullResume: false,
    showPaymentPlanDetails: false,
    completeAfterEsign: true,
    preauthExpireDays: 30,
    supportsFullAppMode: false,
    showBankCardErrorModal: false,
    selectPaymentPlanOnReviewScreen: false,
    ...over,
  } as LenderConfig;
}

/** The demo office's lenders, named as the server's catalogue names them. */
export const DEMO_LENDERS: LenderConfig[] = [
  lender('synchrony_standard', 'Synchrony', { supportsFullAppMode: true }),
  lender('fortiva_standard', 'Fortiva'),
  lender('snap_standard', 'Snap', { kind: 'lease_to_own', creditType: 'loan', fetchPaymentPlansOnPreAuth: false }),
  lender('proceed_standard', 'Proceed'),
];

/** withCatalogue puts lenders in the store, as a loaded apply/start would. */
export function withCatalogue(lenders: LenderConfig[] = DEMO_LENDERS): void {
  flow.set({ lenders: Object.fromEntries(lenders.map((p) => [p.providerKey, p])) });
}
