import { create } from 'zustand';
import type {
  AccountTerms,
  ApplyMode,
  ConsentInput,
  CreditLimitChangeResponse,
  Document,
  Decision,
  Location,
  PaymentPlan,
  LenderConfig,
  Session,
  StartFlowResponse,
  StartLenderResponse,
  WaterfallStep,
} from '@/lib/api/types';
import type { ValidationState } from '@/lib/api/environment';
import { i18n, t } from '@/lib/i18n';
import { lenderKeyOf } from '@/lib/lenderKey';

/** Values as typed in the form (display form), per applicant. */
export type ApplicantValues = Record<string, string | boolean>;

export type StoredErrorType = 'fetch_payment_plan_error' | 'accept_offer_error' | 'accept_offer_validation_error' | 'accept_offer_soft_error';

export interface LenderResponses {
  apply?: Decision;
  preAuth?: Decision & { operation: string };
  paymentPlans?: PaymentPlan[];
  paymentPlansAmountCents?: number;
  stipulations?: unknown[];
  errors?: Partial<Record<StoredErrorType, unknown>>;
  accepted?: boolean;
  /** The plan code the lender was told the patient chose (payment/plans/…/select). */
  selectedPlanCode?: string;
  /** The plan code confirmed with the lender, so accepting again does not confirm twice. */
  confirmedPlanCode?: string;
  /** The e-signature was recorded by the lender, so completing again does not sign twice. */
  signed?: boolean;
  /** The lender's own steps still open before signing (or completing), as the server last said (docs/behaviour.md, "Signing"). */
  openSteps?: string[];
  /** An existing account's limits and terms, for a credit-limit change (GET …/account/terms). */
  accountTerms?: AccountTerms;
  /** The lender's answer to the one credit-limit change of this session (docs/behaviour.md, "Credit-limit change"). */
  creditLimitChange?: CreditLimitChangeResponse;
}

/**
 * Who holds the office tablet, as the patient check answered it
 * (docs/behaviour.md, "The patient check"): the patient, someone who pays
 * for the patient (when the office allows a purchaser), or the patient's
 * responsible party.
 */
export type PatientCheck = 'patient' | 'purchaser' | 'responsible';

/** What the office entered of the applicant, shown in the form for the patient to confirm. */
export interface Prefill {
  firstName?: string;
  lastName?: string;
  email?: string;
  mobilePhone?: string;
  /** From the office's own records (an invitation made from them): yyyy-mm-dd, and the address. */
  dateOfBirth?: string;
  addressLine1?: string;
  addressLine2?: string;
  city?: string;
  state?: string;
  zip?: string;
}

export interface FlowState {
  session: Session | null;
  /** Kept when a session is cleared (docs/behaviour.md, "Finishing"). */
  groupId: string | null;
  experienceType: Session['experienceType'] | null;
  previousSessionId: string | null;
  location: Location | null;
  purchaseAmountCents: number;
  insuranceBenefitsCents: number;
  prefill: Prefill;
  /** Whether someone other than the patient may apply (the start's application.purchaserEnabled). */
  purchaserEnabled: boolean;
  /** The patient check's answer, asked once per session on the office tablet; null until answered. */
  patientCheck: PatientCheck | null;
  /** The patient's name, when someone who pays applies for them. */
  patientName: { firstName: string; lastName: string } | null;
  applicantId: string | null;
  applyMode: ApplyMode;
  providerKey: string | null;
  primaryLenderKey: string | null;
  /** Field definitions by `${providerKey}:${mode}`. */
  fields: Record<string, StartLenderResponse>;
  lenders: Record<string, LenderConfig>;
  primary: ApplicantValues;
  joint: ApplicantValues;
  jointEnabled: boolean;
  responses: Record<string, LenderResponses>;
  selectedPaymentPlan: PaymentPlan | null;
  /** The location's lender waterfall (GET /locations/current), once loaded. */
  waterfall: WaterfallStep[] | null;
  /** Lenders that declined in this session, in the order they answered. */
  declinedBy: string[];
  /** Disclosure documents shown (id, version, sha256 and text), by `${providerKey}:${kind}`. */
  documents: Record<string, Document>;
  /** Consents the patient gave, each naming a document in `documents`, by `${providerKey}:${kind}`. */
  consents: Record<string, ConsentInput>;
  validation: ValidationState | null;
  /** A message for the next screen, e.g. why the lender changed. */
  notice: string | null;
  /** The waiting message of the submission in progress . */
  progress: string | null;
  /** What happens next while it waits (a submit: the lender asked next if this one does not answer). */
  progressDetail: string | null;
}

const initial: FlowState = {
  session: null,
  groupId: null,
  experienceType: null,
  previousSessionId: null,
  location: null,
  purchaseAmountCents: 0,
  insuranceBenefitsCents: 0,
  prefill: {},
  purchaserEnabled: false,
  patientCheck: null,
  patientName: null,
  applicantId: null,
  applyMode: 'prequalify',
  providerKey: null,
  primaryLenderKey: null,
  fields: {},
  lenders: {},
  primary: {},
  joint: {},
  jointEnabled: false,
  responses: {},
  selectedPaymentPlan: null,
  waterfall: null,
  declinedBy: [],
  documents: {},
  consents: {},
  validation: null,
  progress: null,
  progressDetail: null,
  notice: null,
};

/**
 * The flow store lives in memory only: no personal data ever reaches
 * localStorage or sessionStorage (docs/data-safety.md), and finishing clears it.
 */
export const useFlow = create<FlowState>(() => ({ ...initial }));

export const flow = {
  get: () => useFlow.getState(),
  set: (patch: Partial<FlowState>) => useFlow.setState(patch),

  started(res: StartFlowResponse, mode: ApplyMode): void {
    useFlow.setState({
      ...initial,
      session: res.session,
      groupId: res.session.groupId,
      experienceType: res.session.experienceType,
      previousSessionId: useFlow.getState().previousSessionId,
      location: res.location ?? null,
      purchaseAmountCents: res.application?.purchaseAmountCents ?? 0,
      insuranceBenefitsCents: res.application?.insurance?.insuranceBenefitsCents ?? 0,
      prefill: { ...res.application?.primary },
      purchaserEnabled: res.application?.purchaserEnabled ?? false,
      applicantId: res.application?.reference ?? null,
      applyMode: mode,
      providerKey: res.session.dynamicProviderKey,
      primaryLenderKey: res.session.dynamicProviderKey,
    });
  },

  fieldsLoaded(key: string, res: StartLenderResponse): void {
    const list: LenderConfig[] = res.providers ?? [];
    const lenders = { ...useFlow.getState().lenders };
    for (const p of list) {
      const k = lenderKeyOf(p);
      if (k) lenders[k] = { ...lenders[k], ...p };
    }
    useFlow.setState((s) => ({ fields: { ...s.fields, [key]: res }, lenders: lenders }));
  },

  response(providerKey: string, patch: Partial<LenderResponses>): void {
    useFlow.setState((s) => ({ responses: { ...s.responses, [providerKey]: { ...s.responses[providerKey], ...patch } } }));
  },

  setProgress(progress: string | null, progressDetail: string | null = null): void {
    useFlow.setState({ progress, progressDetail: progress ? progressDetail : null });
  },

  /**
   * clear resets everything but the experience type, the group id and the
   * office (its name and brand, nothing of the patient's), so the finish
   * screen still speaks in the office's wording (docs/behaviour.md, "Finishing").
   */
  clear(): void {
    const s = useFlow.getState();
    useFlow.setState({
      ...initial,
      groupId: s.groupId,
      experienceType: s.experienceType,
      location: s.location,
      previousSessionId: s.session?.webSessionId ?? s.previousSessionId,
    });
  },

  /** reset forgets everything (going to /start). */
  reset(): void {
    useFlow.setState({ ...initial });
  },
};

export const fieldsKey = (providerKey: string, mode: ApplyMode) => `${providerKey}:${mode}`;

export function applicantTitle(s: Pick<FlowState, 'primary' | 'prefill' | 'applicantId'>): string {
  const first = (s.primary.firstName as string | undefined) || s.prefill.firstName || '';
  const last = (s.primary.lastName as string | undefined) || s.prefill.lastName || '';
  // The id is the application's short reference (docs/behaviour.md, "Routes"), which the office can look up.
  const id = s.applicantId ?? '';
  if (!first && !last) return '';
  return [first, last, id].filter(Boolean).join(':');
}

/**
 * nameOf answers a lender's display name from the server's catalogue (the
 * `providers` of apply/start); until that is loaded, a neutral "the lender".
 */
export function nameOf(lenders: Record<string, LenderConfig>, providerKey: string | null | undefined): string {
  return (providerKey ? lenders[providerKey]?.name : undefined) || t('common.lender.unknownName');
}

/**
 * shortNameOf answers a lender's abbreviated name (catalogue
 * abbreviatedName), for places that name several lenders in one line;
 * its display name when it has none.
 */
export function shortNameOf(lenders: Record<string, LenderConfig>, providerKey: string | null | undefined): string {
  return (providerKey ? lenders[providerKey]?.abbreviatedName : undefined) || nameOf(lenders, providerKey);
}

/** lenderName answers a lender's display name now (see nameOf); components use useLenderName to follow the catalogue. */
export function lenderName(providerKey: string | null | undefined): string {
  return nameOf(useFlow.getState().lenders, providerKey);
}

/** useLenderName is lenderName for components: it renders again when the catalogue arrives. */
export function useLenderName(providerKey: string | null | undefined): string {
  return useFlow((s) => nameOf(s.lenders, providerKey));
}

// A document is shown, and agreed to, in one language: when the patient
// switches, the documents are fetched again in the new one and the
// agreements given to the old ones no longer count (docs/languages.md).
i18n.on('languageChanged', () => {
  if (Object.keys(flow.get().documents).length || Object.keys(flow.get().consents).length) flow.set({ documents: {}, consents: {} });
});
