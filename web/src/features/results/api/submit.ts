import { api, ApiError, errorTarget, invalidApplicants, isStillWorking, lenderPath } from '@/lib/api/client';
import type { ApplyMode, Decision, FieldError, NextAction } from '@/lib/api/types';
import { reportClientError } from '@/lib/clientLog';
import { autoSubmitChain } from '@/lib/consent/chain';
import { consentFor, forgetConsent } from '@/lib/consent/documents';
import { ConsentNeeded, decisionDestination, isExpired, isPositive, normalizeCode, runCascade, unansweredIn } from '@/lib/decision';
import { planAmountCents } from '@/lib/money';
import { lenderRoute } from '@/lib/paths';
import { SUBMIT_MINIMUM_MS } from '@/lib/timeout';
import { flow, lenderName } from '@/stores/flow';
import { timerControl } from '@/stores/ui';
import { alreadyAnsweredNotice, consentNotice, decisionNext, decisionProgress, switchNotice } from '../messages';

/**
 * What the submit needs from the other features, handed over by the app
 * (app/submissions.ts) so that no feature imports another: the application
 * form's body and field checks, and the offers' plan fetch.
 */
export interface SubmitDeps {
  /** Loads the field definitions of a lender and mode unless they are there (never fails). */
  ensureFields(providerKey: string, mode: ApplyMode): Promise<void>;
  /** The body prequalify, prescreen and apply receive, built from what the patient typed. */
  body(providerKey: string, mode: ApplyMode): Record<string, unknown>;
  /** Values that cannot be sent as typed (a decimal in a whole-number field), as field errors. */
  unsendable(providerKey: string, mode: ApplyMode): FieldError[];
  /** Fetches a lender's payment plans for an amount, after a positive answer. */
  fetchPlans(providerKey: string, amountCents: number, opts: { handled?: boolean }): Promise<unknown>;
}

const opFor = (mode: ApplyMode) => (mode === 'full' ? 'apply' : mode);

/**
 * askedNext is the lender the cascade would ask on its own if this one does
 * not answer: the next step of the office's waterfall submitted by itself,
 * when the patient agreed to its terms; null otherwise.
 */
function askedNext(providerKey: string): string | null {
  const step = autoSubmitChain(flow.get().waterfall ?? [], providerKey)[0];
  return step && consentFor(step.providerKey, step.applyMode) ? step.providerKey : null;
}

/** A 400 consent_required on a submit is the server refusing the consent (e.g. the document changed). */
const consentRefused = (e: unknown) => e instanceof ApiError && e.code === 'consent_required';

async function submitOnce(deps: SubmitDeps, providerKey: string, mode: ApplyMode, resubmitRoute: string, handled: boolean): Promise<Decision> {
  const op = opFor(mode);
  const consent = consentFor(providerKey, mode);
  if (!consent) throw new Error(`no consent for ${providerKey}`);
  // The waiting words name the lender asked now, and what happens if it does not answer.
  const next = askedNext(providerKey);
  flow.setProgress(decisionProgress(op, lenderName(providerKey)), decisionNext(lenderName(providerKey), next ? lenderName(next) : null));
  await deps.ensureFields(providerKey, mode);
  const body = { ...deps.body(providerKey, mode), consent };
  let decision: Decision;
  try {
    decision = await api.post<Decision>(lenderPath(providerKey, op), body, {
      apply: handled ? { providerKey, resubmitRoute } : undefined,
      noErrorHandling: !handled,
      // Changed details after this lender answered: the patient is shown that answer (submitDecision).
      ownCodes: ['idempotency_mismatch'],
      lenderStep: true,
    });
  } catch (e) {
    if (isStillWorking(e)) e.providerKey = providerKey;
    throw e;
  }
  const d: Decision = { ...decision, providerKey: decision.providerKey || providerKey };
  // The treatment amount the patient entered is now the application's: every lender after this one decides on it.
  const entered = (body as Record<string, unknown>).purchaseAmountCents;
  if (typeof entered === 'number' && !flow.get().purchaseAmountCents) flow.set({ purchaseAmountCents: entered });
  if (normalizeCode(d.responseCode) === 'declined' && !flow.get().declinedBy.includes(d.providerKey)) {
    flow.set({ declinedBy: [...flow.get().declinedBy, d.providerKey] });
  }
  if (mode === 'full') flow.response(d.providerKey, { apply: d, stipulations: d.stipulations ?? [] });
  else flow.response(d.providerKey, { preAuth: { ...d, operation: op }, stipulations: d.stipulations ?? [] });
  return d;
}

async function fetchPlansQuietly(deps: SubmitDeps, providerKey: string, amountCents: number): Promise<void> {
  try {
    await deps.fetchPlans(providerKey, amountCents, { handled: false });
  } catch {
    flow.response(providerKey, { errors: { ...flow.get().responses[providerKey]?.errors, fetch_payment_plan_error: true } });
  }
}

/** destinationOf is the screen of a lender's decision (docs/behaviour.md, "Decision routing"). */
function destinationOf(final: Decision, finalMode: ApplyMode, providerKey: string): string {
  const primaryKey = flow.get().primaryLenderKey ?? providerKey;
  const dest = decisionDestination(final, {
    mode: finalMode,
    preAuth: finalMode !== 'full',
    primarySupportsFull: Boolean(flow.get().lenders[primaryKey]?.supportsFullAppMode),
    unanswered: unansweredIn(flow.get().responses),
  });
  if (!dest) {
    console.warn(`unknown response code ${normalizeCode(final.responseCode)}`);
    reportClientError('decision.unknown_response', 'warn');
    return '/error?code=unknown_response';
  }
  return lenderRoute(final.providerKey, dest);
}

/**
 * answeredBefore: when the server refuses a submit because this lender has
 * already answered the same application with other details
 * (idempotency_mismatch: the patient went Back and changed something), the
 * answer the patient already has from it; otherwise undefined. A lender is
 * never asked twice, so that answer stands.
 */
function answeredBefore(e: unknown, providerKey: string, mode: ApplyMode): Decision | undefined {
  if (!(e instanceof ApiError) || e.code !== 'idempotency_mismatch') return undefined;
  const r = flow.get().responses[providerKey];
  return mode === 'full' ? r?.apply : r?.preAuth;
}

/**
 * submitDecision runs prequalify / prescreen / full apply for the current
 * lender, follows the cascade, fetches plans on a positive answer and
 * answers the path to show next (docs/behaviour.md, "Decision routing" and
 * "The waterfall").
 */
export async function submitDecision(mode: ApplyMode, deps: SubmitDeps): Promise<string> {
  const s = flow.get();
  const providerKey = s.providerKey!;
  const resubmitRoute = lenderRoute(providerKey, mode === 'full' ? 'fullApplicationSubmit' : 'prequalifySubmit');
  // No consent given on a screen that showed this lender's document: ask for it there.
  if (!consentFor(providerKey, mode)) return lenderRoute(providerKey, mode === 'full' ? 'terms' : 'prequalifyAgree');
  // A decimal in a whole-number field is never sent: the patient corrects it first.
  const unsendable = deps.unsendable(providerKey, mode);
  if (unsendable.length) {
    flow.set({ validation: { providerKey, resubmitRoute, invalidApplicants: invalidApplicants(unsendable), fieldErrors: unsendable } });
    const err = new ApiError(400, { code: 'validation_error', fieldErrors: unsendable });
    return errorTarget(err, { apply: { providerKey, resubmitRoute } }, resubmitRoute);
  }
  timerControl.setMinimum(SUBMIT_MINIMUM_MS);
  try {
    let first: Decision;
    try {
      first = await submitOnce(deps, providerKey, mode, resubmitRoute, true);
    } catch (e) {
      const answered = answeredBefore(e, providerKey, mode);
      if (!answered) {
        // Nothing to show in its place: the error page, as for any other refusal.
        if (e instanceof ApiError && e.code === 'idempotency_mismatch') return errorTarget(e, {}, '');
        throw e;
      }
      flow.set({ validation: null, notice: alreadyAnsweredNotice(providerKey) });
      return destinationOf(answered, mode, providerKey);
    }
    const result = await runCascade(first, async (next: NextAction) => {
      // Only a consent the patient gave on a screen that showed this lender's document.
      if (!consentFor(next.provider, next.applyMode)) throw new ConsentNeeded(next);
      try {
        return await submitOnce(deps, next.provider, next.applyMode, resubmitRoute, false);
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
      return lenderRoute(next.provider, next.applyMode === 'full' ? 'terms' : 'prequalifyAgree');
    }
    if (result.switchTo) {
      const next = result.switchTo;
      flow.set({ providerKey: next.provider, applyMode: next.applyMode, notice: switchNotice(result.chain, next.provider) });
      return lenderRoute(next.provider, next.resume ? 'resume' : `modes/${next.applyMode}/start`);
    }
    const final = result.final;
    const finalMode = final.providerKey === providerKey ? mode : (first.next?.applyMode ?? mode);
    flow.set({ providerKey: final.providerKey });
    // An offer already past its date has no plans to fetch: the server refuses them.
    if (isPositive(final.responseCode) && !isExpired(final.expiresAt)) {
      const cfg = flow.get().lenders[final.providerKey];
      const { purchaseAmountCents, insuranceBenefitsCents } = flow.get();
      const amount = planAmountCents(final.approvedAmountCents ?? 0, purchaseAmountCents, insuranceBenefitsCents);
      const fetchPlans = mode === 'full' || cfg?.fetchPaymentPlansOnPreAuth !== false;
      if (fetchPlans && amount > 0) await fetchPlansQuietly(deps, final.providerKey, amount);
    }
    return destinationOf(final, finalMode, providerKey);
  } finally {
    flow.setProgress(null);
    timerControl.setMinimum(0);
  }
}
