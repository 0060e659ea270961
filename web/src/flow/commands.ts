import { api, ApiError, errorTarget, invalidApplicants, isStillWorking, providerPath } from '@/lib/api/client';
import type {
  ApplyMode,
  ConsentInput,
  CurrentLocation,
  Decision,
  DisclosureKind,
  Document,
  FieldError,
  NextAction,
  PaymentPlan,
  StartFlowResponse,
  StartProviderResponse,
  WaterfallStep,
} from '@/lib/api/types';
import { consentTargets, joinNames, kindFor, type ConsentTarget } from '@/lib/consentChain';
import { ConsentNeeded, decisionDestination, isPositive, normalizeCode, runCascade } from '@/lib/decision';
import { reportClientError } from '@/lib/clientLog';
import { SUBMIT_MINIMUM_MS } from '@/lib/timeout';
import { isWholeNumberField, messages, parseWholeNumber, toApiValue } from '@/lib/validation';
import { fieldsKey, flow, providerName, type ApplicantValues } from '@/stores/flow';
import { timerControl } from '@/stores/ui';
import { progressMessages } from './messages';

const enc = encodeURIComponent;

/** Promises of submissions in flight, so a double tap or a re-render never submits twice. */
const inFlight = new Map<string, Promise<unknown>>();
export function once<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const running = inFlight.get(key);
  if (running) return running as Promise<T>;
  const p = fn().finally(() => inFlight.delete(key));
  inFlight.set(key, p);
  return p;
}

export async function withProgress<T>(message: string, fn: () => Promise<T>): Promise<T> {
  flow.setProgress(message);
  try {
    return await fn();
  } finally {
    flow.setProgress(null);
  }
}

export const providerRoute = (providerKey: string, rest: string) => `/providers/${enc(providerKey)}/${rest}`;

/** startFlow begins a session from an entity key or a flow token and answers where to go. */
export async function startFlow(kind: 'entity-keys' | 'tokens', value: string): Promise<string> {
  flow.reset();
  const res = await api.post<StartFlowResponse>(`/flow/start/${kind}/${enc(value)}`, {});
  const mode: ApplyMode = res.session.properties?.applyMode ?? 'prequalify';
  flow.started(res, mode);
  // The form's fields load while the screen's code does.
  void loadFields(res.session.dynamicProviderKey, mode).catch(() => undefined);
  return providerRoute(res.session.dynamicProviderKey, `modes/${mode}/start`);
}

/** loadFields gets the field definitions of a provider and mode once. */
export async function loadFields(providerKey: string, mode: ApplyMode): Promise<StartProviderResponse> {
  const key = fieldsKey(providerKey, mode);
  const have = flow.get().fields[key];
  if (have) return have;
  return once(`fields:${key}`, async () => {
    const res = await api.post<StartProviderResponse>(`/apply/start/providers/${enc(providerKey)}`, {}, { query: { mode } });
    flow.fieldsLoaded(key, res);
    if (res.applyMode && res.applyMode !== mode) flow.fieldsLoaded(fieldsKey(providerKey, res.applyMode), res);
    return res;
  });
}

function fieldDefs(providerKey: string, mode: ApplyMode) {
  return flow.get().fields[fieldsKey(providerKey, mode)]?.fields ?? Object.values(flow.get().fields).flatMap((f) => f.fields);
}

function applicantBody(values: ApplicantValues, providerKey: string, mode: ApplyMode): Record<string, unknown> {
  const defs = fieldDefs(providerKey, mode);
  const out: Record<string, unknown> = {};
  const seen = new Set<string>();
  for (const def of defs) {
    if (seen.has(def.id)) continue;
    seen.add(def.id);
    if (def.id === 'jointEnabled' || def.id === 'purchaseAmountCents') continue;
    const v = toApiValue(def, values[def.id]);
    if (v !== undefined) out[def.path || def.id] = v;
  }
  // Dynamic phone: the chosen type decides which field carries the number (spec §5.2).
  for (const def of defs.filter((d) => d.type === 'dynamicPhone')) {
    const type = values[`${def.id}Type`] === 'home' ? 'home' : 'mobile';
    const num = out[def.path || def.id];
    if (num !== undefined && def.id !== 'mobilePhone' && def.id !== 'homePhone') {
      delete out[def.path || def.id];
      out[type === 'home' ? 'homePhone' : 'mobilePhone'] = num;
    } else if (num !== undefined) {
      delete out.homePhone;
      delete out.mobilePhone;
      out[type === 'home' ? 'homePhone' : 'mobilePhone'] = num;
    }
  }
  return out;
}

/** applicationBody is what prequalify, prescreen and apply receive. */
export function applicationBody(providerKey: string, mode: ApplyMode): Record<string, unknown> {
  const s = flow.get();
  const body: Record<string, unknown> = {
    primary: applicantBody(s.primary, providerKey, mode),
    jointEnabled: s.jointEnabled,
  };
  if (s.jointEnabled) body.joint = applicantBody(s.joint, providerKey, mode);
  return body;
}

/**
 * unsendableNumbers lists the whole-number fields (months employed, housing
 * months …) holding something that is not a whole number, such as "2.5". Such
 * a value is never sent as some other number: the patient is shown the field
 * with the words the server would answer.
 */
export function unsendableNumbers(providerKey: string, mode: ApplyMode): FieldError[] {
  const s = flow.get();
  const out: FieldError[] = [];
  const applicants: ['primary' | 'joint', ApplicantValues][] = [['primary', s.primary]];
  if (s.jointEnabled) applicants.push(['joint', s.joint]);
  const seen = new Set<string>();
  for (const def of fieldDefs(providerKey, mode)) {
    if (seen.has(def.id) || !isWholeNumberField(def)) continue;
    seen.add(def.id);
    for (const [applicant, values] of applicants) {
      const v = values[def.id];
      if (typeof v !== 'string' || v.trim() === '') continue;
      const parsed = parseWholeNumber(v);
      if (!parsed.ok) out.push({ field: `${applicant}.${def.id}`, message: parsed.reason === 'notWhole' ? messages.wholeNumber : messages.invalid });
    }
  }
  return out;
}

const opFor = (mode: ApplyMode) => (mode === 'full' ? 'apply' : mode);
export { kindFor };

/** loadWaterfall gets the location's lender waterfall once (GET /locations/current). */
export async function loadWaterfall(): Promise<WaterfallStep[]> {
  const have = flow.get().waterfall;
  if (have) return have;
  return once('waterfall', async () => {
    const res = await api.get<CurrentLocation>('/locations/current', { noErrorHandling: true });
    const waterfall = res?.waterfall ?? [];
    flow.set({ waterfall });
    return waterfall;
  });
}

/**
 * loadConsentDocuments answers what one consent screen must show: the
 * current lender's authorisation and that of every lender the app may
 * submit to on its own after it, each with its document. If the waterfall
 * cannot be read, only the current lender's is shown (the cascade then
 * stops at the next lender and asks the patient there).
 */
export async function loadConsentDocuments(providerKey: string, mode: ApplyMode): Promise<{ target: ConsentTarget; doc: Document }[]> {
  const waterfall = await loadWaterfall().catch(() => [] as WaterfallStep[]);
  const targets = consentTargets(waterfall, providerKey, mode);
  const docs = await Promise.all(
    targets.map((t, i) =>
      loadDisclosure(t.providerKey, t.kind, { handled: false }).then(
        (doc) => doc,
        (e: unknown) => {
          // The current lender's document is required; a later lender's is not (the cascade stops there instead).
          if (i === 0) throw e;
          return null;
        },
      ),
    ),
  );
  const out: { target: ConsentTarget; doc: Document }[] = [];
  targets.forEach((target, i) => {
    const doc = docs[i];
    if (doc) out.push({ target, doc });
  });
  return out;
}

/** loadDisclosure gets the document a consent must name (GET disclosures?kind=). */
export async function loadDisclosure(providerKey: string, kind: DisclosureKind, opts: { handled?: boolean } = {}): Promise<Document> {
  const key = `${providerKey}:${kind}`;
  const have = flow.get().documents[key];
  if (have) return have;
  return once(`doc:${key}`, async () => {
    const doc = await api.get<Document>(providerPath(providerKey, 'disclosures'), { query: { kind }, noErrorHandling: opts.handled === false });
    flow.set({ documents: { ...flow.get().documents, [key]: doc } });
    return doc;
  });
}

export function consentOf(doc: Document): ConsentInput {
  return { documentId: doc.id, documentVersion: doc.version, documentSha256: doc.sha256, agreed: true };
}

/** agree records that the patient agreed to the document they were shown. */
export function agree(providerKey: string, kind: DisclosureKind, doc: Document): void {
  flow.set({ consents: { ...flow.get().consents, [`${providerKey}:${kind}`]: consentOf(doc) } });
}

/**
 * consentFor answers the consent the patient gave for a submit: the one
 * recorded when they agreed to the document they were shown. There is never
 * a consent given on the patient's behalf; without one the answer is null.
 */
function consentFor(providerKey: string, mode: ApplyMode): ConsentInput | null {
  const key = `${providerKey}:${kindFor(mode)}`;
  const s = flow.get();
  const given = s.consents[key];
  const shown = s.documents[key];
  // The consent must name exactly the document that was shown.
  if (!given || !shown || given.documentId !== shown.id || given.documentVersion !== shown.version || given.documentSha256 !== shown.sha256) return null;
  return given;
}

/** forgetConsent drops a lender's document and consent, so its screen fetches and shows the current one. */
function forgetConsent(providerKey: string, mode: ApplyMode): void {
  const key = `${providerKey}:${kindFor(mode)}`;
  const { [key]: _doc, ...documents } = flow.get().documents;
  const { [key]: _consent, ...consents } = flow.get().consents;
  void _doc;
  void _consent;
  flow.set({ documents, consents });
}

/** A 400 without field errors on a submit is the server refusing the consent (e.g. the document changed). */
const consentRefused = (e: unknown) => e instanceof ApiError && e.code === 'consent_required';

async function submitOnce(providerKey: string, mode: ApplyMode, resubmitRoute: string, handled: boolean): Promise<Decision> {
  const op = opFor(mode);
  const consent = consentFor(providerKey, mode);
  if (!consent) throw new Error(`no consent for ${providerKey}`);
  flow.setProgress(progressMessages.decision(op, providerName(providerKey)));
  if (!flow.get().fields[fieldsKey(providerKey, mode)]) {
    await loadFields(providerKey, mode).catch(() => undefined);
  }
  const body = { ...applicationBody(providerKey, mode), consent };
  let decision: Decision;
  try {
    decision = await api.post<Decision>(providerPath(providerKey, op), body, {
      apply: handled ? { providerKey, resubmitRoute } : undefined,
      noErrorHandling: !handled,
      lenderStep: true,
    });
  } catch (e) {
    if (isStillWorking(e)) e.providerKey = providerKey;
    throw e;
  }
  const d: Decision = { ...decision, providerKey: decision.providerKey || providerKey };
  if (normalizeCode(d.responseCode) === 'declined' && !flow.get().declinedBy.includes(d.providerKey)) {
    flow.set({ declinedBy: [...flow.get().declinedBy, d.providerKey] });
  }
  if (mode === 'full') flow.response(d.providerKey, { apply: d, stipulations: d.stipulations ?? [] });
  else flow.response(d.providerKey, { preAuth: { ...d, operation: op }, stipulations: d.stipulations ?? [] });
  return d;
}

/**
 * submitDecision runs prequalify / prescreen / full apply for the current
 * provider, follows the cascade, fetches plans on a positive answer and
 * answers the path to show next (spec §4.1, §4.2).
 */
export async function submitDecision(mode: ApplyMode): Promise<string> {
  const s = flow.get();
  const providerKey = s.providerKey!;
  const resubmitRoute = providerRoute(providerKey, mode === 'full' ? 'fullApplicationSubmit' : 'prequalifySubmit');
  // No consent given on a screen that showed this lender's document: ask for it there.
  if (!consentFor(providerKey, mode)) return providerRoute(providerKey, mode === 'full' ? 'terms' : 'prequalifyAgree');
  // A decimal in a whole-number field is never sent: the patient corrects it first.
  const unsendable = unsendableNumbers(providerKey, mode);
  if (unsendable.length) {
    flow.set({ validation: { providerKey, resubmitRoute, invalidApplicants: invalidApplicants(unsendable), fieldErrors: unsendable } });
    const err = new ApiError(400, { code: 'validation_error', fieldErrors: unsendable });
    return errorTarget(err, { apply: { providerKey, resubmitRoute } }, resubmitRoute);
  }
  timerControl.setMinimum(SUBMIT_MINIMUM_MS);
  try {
    const first = await submitOnce(providerKey, mode, resubmitRoute, true);
    const result = await runCascade(first, async (next: NextAction) => {
      // Only a consent the patient gave on a screen that showed this lender's document.
      if (!consentFor(next.provider, next.applyMode)) throw new ConsentNeeded(next);
      try {
        return await submitOnce(next.provider, next.applyMode, resubmitRoute, false);
      } catch (e) {
        if (consentRefused(e)) {
          forgetConsent(next.provider, next.applyMode);
          throw new ConsentNeeded(next);
        }
        throw e;
      }
    });
    flow.set({ validation: null, notice: null });
    if (result.consentNeeded) {
      const next = result.consentNeeded;
      flow.set({ providerKey: next.provider, applyMode: next.applyMode, notice: consentNotice(result.chain, next.provider) });
      return providerRoute(next.provider, next.applyMode === 'full' ? 'terms' : 'prequalifyAgree');
    }
    if (result.switchTo) {
      const next = result.switchTo;
      flow.set({ providerKey: next.provider, applyMode: next.applyMode, notice: switchNotice(result.chain, next.provider) });
      return providerRoute(next.provider, next.resume ? 'resume' : `modes/${next.applyMode}/start`);
    }
    const final = result.final;
    const finalMode = final.providerKey === providerKey ? mode : (first.next?.applyMode ?? mode);
    flow.set({ providerKey: final.providerKey });
    if (isPositive(final.responseCode)) {
      const cfg = flow.get().providers[final.providerKey];
      const approved = final.approvedAmountCents ?? 0;
      const amount = Math.min(approved || Number.MAX_SAFE_INTEGER, flow.get().purchaseAmountCents || approved);
      const fetchPlans = mode === 'full' || cfg?.fetchPaymentPlansOnPreAuth !== false;
      if (fetchPlans && amount > 0) await fetchPlansQuietly(final.providerKey, amount);
    }
    const primaryKey = flow.get().primaryProviderKey ?? providerKey;
    const dest = decisionDestination(final, {
      mode: finalMode,
      preAuth: finalMode !== 'full',
      primarySupportsFull: Boolean(flow.get().providers[primaryKey]?.supportsFullAppMode),
    });
    if (!dest) {
      console.warn(`unknown response code ${normalizeCode(final.responseCode)}`);
      reportClientError('decision.unknown_response', 'warn');
      return '/error?code=unknown_response';
    }
    return providerRoute(final.providerKey, dest);
  } finally {
    flow.setProgress(null);
    timerControl.setMinimum(0);
  }
}

/** declineMessage names every lender that declined, in ux.md's words (never wording that could pass for the lender's notice). */
export function declineMessage(names: readonly string[]): string {
  if (!names.length) return '';
  return `${joinNames(names)} couldn’t approve this application. ${names.length > 1 ? 'Each will' : 'They will'} send you a letter explaining why within 7–10 business days.`;
}

/**
 * What the patient is told before the next lender: every lender that declined
 * in this session, then who in this cascade did not answer or had no offer.
 */
function chainSummary(chain: Decision[]): string[] {
  const named = (code: string) => chain.filter((d) => normalizeCode(d.responseCode) === code).map((d) => providerName(d.providerKey));
  const parts: string[] = [];
  const declined = flow.get().declinedBy.map((k) => providerName(k));
  if (declined.length) parts.push(declineMessage(declined));
  const silent = named('error');
  if (silent.length) parts.push(`We didn’t get an answer from ${joinNames(silent)}.`);
  const nooffer = named('nooffer');
  if (nooffer.length) parts.push(`${joinNames(nooffer)} couldn’t make an offer.`);
  return parts;
}

/** switchNotice explains, in ux.md's words, why the patient now sees another lender. */
export function switchNotice(chain: Decision[], nextProvider: string): string {
  return [...chainSummary(chain), `You can still check your options with ${providerName(nextProvider)}. Your details are already filled in.`].join(' ');
}

/** consentNotice explains why the patient is asked to agree again before the next lender checks. */
export function consentNotice(chain: Decision[], nextProvider: string): string {
  const name = providerName(nextProvider);
  return [...chainSummary(chain), `You can still check your options with ${name}. First, please read what you agree to with ${name} below.`].join(' ');
}

async function fetchPlansQuietly(providerKey: string, amountCents: number): Promise<void> {
  try {
    await fetchPlans(providerKey, amountCents, { handled: false });
  } catch {
    flow.response(providerKey, { errors: { ...flow.get().responses[providerKey]?.errors, fetch_payment_plan_error: true } });
  }
}

/** fetchPlans asks for the payment plans of one provider for an amount. */
export async function fetchPlans(providerKey: string, amountCents: number, opts: { handled?: boolean } = {}): Promise<PaymentPlan[]> {
  const res = await api.post<{ paymentPlans: PaymentPlan[] }>(providerPath(providerKey, 'payment/plans'), { amountCents }, { noErrorHandling: opts.handled === false });
  const plans = (res?.paymentPlans ?? []).map((p) => ({ ...p, providerKey: p.providerKey || providerKey }));
  flow.response(providerKey, { paymentPlans: plans, paymentPlansAmountCents: amountCents });
  return plans;
}

/** selectPlan records the patient's choice with the lender. */
export async function selectPlan(plan: PaymentPlan): Promise<void> {
  await withProgress(progressMessages.select, () =>
    api.post(providerPath(plan.providerKey, `payment/plans/${enc(plan.providerPlanCode)}/select`), {}),
  );
  // A new selection has to be confirmed again before the offer is accepted.
  flow.response(plan.providerKey, { confirmedPlanCode: undefined });
  flow.set({ selectedPaymentPlan: plan, providerKey: plan.providerKey });
}

/**
 * acceptOffer confirms the plan and accepts the offer (spec §4.2 accept offer
 * stage). Run again after the lender was still working on it, the
 * confirmation already made is not repeated: only acceptOffer is asked again,
 * and the server answers it with the first answer.
 */
export async function acceptOffer(plan: PaymentPlan): Promise<string> {
  const k = plan.providerKey;
  return withProgress(progressMessages.acceptOffer(providerName(k)), async () => {
    try {
      if (flow.get().responses[k]?.confirmedPlanCode !== plan.providerPlanCode) {
        await api.post(providerPath(k, `payment/plans/${enc(plan.providerPlanCode)}/confirm-selection`), undefined, { noErrorHandling: true });
        flow.response(k, { confirmedPlanCode: plan.providerPlanCode });
      }
      await api.post(providerPath(k, 'acceptOffer'), { providerPlanCode: plan.providerPlanCode }, { noErrorHandling: true, lenderStep: true });
    } catch (e) {
      if (isStillWorking(e)) {
        e.providerKey = k;
        throw e;
      }
      if (e instanceof ApiError && (e.code === 'session_invalid' || e.status === 401)) return '/session/invalid';
      flow.response(k, { errors: { ...flow.get().responses[k]?.errors, accept_offer_error: e instanceof ApiError ? e.code : 'failed' } });
      return providerRoute(k, 'acceptOfferError');
    }
    flow.response(k, { accepted: true });
    const mode = flow.get().applyMode;
    return providerRoute(k, `modes/${mode}/offerReviewNext`);
  });
}

/**
 * esignAndComplete sends the e-sign consent and signature, then completes the
 * application. Each is a lender step: still in flight, it is asked again
 * (same body) while its waiting words stay; run again after that, a step
 * already done is not repeated.
 */
export async function esignAndComplete(signaturePng: string): Promise<string> {
  const k = flow.get().providerKey!;
  timerControl.setMinimum(SUBMIT_MINIMUM_MS);
  try {
    const consent = flow.get().consents[`${k}:esign`];
    if (!consent) throw new Error('no e-sign consent');
    if (!flow.get().responses[k]?.signed) {
      await withProgress(progressMessages.esign, () => api.post(providerPath(k, 'application/esign'), { consent, signaturePng }, { lenderStep: true }));
      flow.response(k, { signed: true });
    }
    await withProgress(progressMessages.complete, () => api.post(providerPath(k, 'application/complete'), {}, { lenderStep: true }));
    return providerRoute(k, 'complete');
  } catch (e) {
    if (isStillWorking(e)) e.providerKey = k;
    throw e;
  } finally {
    timerControl.setMinimum(0);
  }
}

export { finishFlow } from './finish';
