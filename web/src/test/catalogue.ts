import type { ProviderConfig } from '@/lib/api/types';
import { flow } from '@/stores/flow';

/** provider answers a catalogue entry as the server sends it in apply/start (only the name and key matter to most tests). */
export function provider(providerKey: string, name: string, over: Partial<ProviderConfig> = {}): ProviderConfig {
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
  } as ProviderConfig;
}

/** The demo office's lenders, named as the server's catalogue names them. */
export const DEMO_PROVIDERS: ProviderConfig[] = [
  provider('synchrony_standard', 'Synchrony', { supportsFullAppMode: true }),
  provider('fortiva_standard', 'Fortiva'),
  provider('snap_standard', 'Snap', { kind: 'lease_to_own', creditType: 'loan', fetchPaymentPlansOnPreAuth: false }),
  provider('proceed_standard', 'Proceed'),
];

/** withCatalogue puts lenders in the store, as a loaded apply/start would. */
export function withCatalogue(providers: ProviderConfig[] = DEMO_PROVIDERS): void {
  flow.set({ providers: Object.fromEntries(providers.map((p) => [p.providerKey, p])) });
}
