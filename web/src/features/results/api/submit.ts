import { api, ApiError, errorTarget, invalidApplicants, isStillWorking, lenderPath } from '@/lib/api/client';
import type { ApplyMode, Decision, DecisionProgress, FieldError, NextAction } from '@/lib/api/types';
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

/** One later lender the server may ask within the first submit: its mode, and its submit with consent and form (api/openapi.yaml, CascadeStep). */
interface CascadeStep {
  provider: string;
  applyMode: ApplyMode;
  request: Record<string, unknown>;
}
type SubmitBody = Record<string, unknown> & { cascade?: CascadeStep[] };

/** bodyFor is the submit a lender gets: the form as that lender asks for it, with the patient's consent to its document. */
async function bodyFor(deps: SubmitDeps, providerKey: string, mode: ApplyMode): Promise<Record<string, unknown>> {
  const consent = consentFor(providerKey, mode);
  if (!consent) throw new Error(`no consent for ${providerKey}`);
  await deps.ensureFields(providerKey, mode);
  return { ...deps.body(providerKey, mode), consent };
}

/**
 * cascadeSteps are the lenders after providerKey the server may ask within
 * the same submit (docs/behaviour.md, "The waterfall"): those submitted by
 * themselves whose terms the patient agreed to, up to the first that is not
 * or whose form holds something that cannot be sent; the browser goes on
 * from there as before.
 */
async function cascadeSteps(deps: SubmitDeps, providerKey: string): Promise<CascadeStep[]> {
  const chain = autoSubmitChain(flow.get().waterfall ?? [], providerKey);
  const unagreed = chain.findIndex((s) => !consentFor(s.providerKey, s.applyMode));
  const agreed = unagreed < 0 ? chain : chain.slice(0, unagreed);
  // The forms of the lenders asked next, all at once: each submit's body is built from its lender's form.
  await Promise.all(agreed.map((s) => deps.ensureFields(s.providerKey, s.applyMode)));
  const out: CascadeStep[] = [];
  for (const s of agreed) {
    if (deps.unsendable(s.providerKey, s.applyMode).length) break;
    out.push({ provider: s.providerKey, applyMode: s.applyMode, request: await bodyFor(deps, s.providerKey, s.applyMode) });
  }
  return out;
}

/** showAsking puts on the waiting screen the lender asked now, and what happens if it does not answer. */
function showAsking(providerKey: string, mode: ApplyMode): void {
  const next = askedNext(providerKey);
  flow.setProgress(decisionProgress(opFor(mode), lenderName(providerKey)), decisionNext(lenderName(providerKey), next ? lenderName(next) : null));
}

/** How often the waiting screen asks which lender the server's cascade has reached. */
const PROGRESS_POLL_MS = 700;

/**
 * followProgress, while the first submit of a server-run cascade is under
 * way, names on the waiting screen each lender as the server asks it (GET
 * /application/progress). The answer is the submit's: a failed poll is
 * only a waiting screen that stays as it was.
 */
function followProgress(steps: readonly CascadeStep[]): () => void {
  let stopped = false;
  let shown = '';
  const poll = async () => {
    while (!stopped) {
      await new Promise((r) => setTimeout(r, PROGRESS_POLL_MS));
      if (stopped) return;
      try {
        const p = await api.get<DecisionProgress>('/application/progress', { noErrorHandling: true });
        const step = steps.find((c) => c.provider === p.asking);
        if (!stopped && step && step.provider !== shown) {
          shown = step.provider;
          showAsking(step.provider, step.applyMode);
        }
      } catch {
        // The next poll, or the submit's answer, says more.
      }
    }
  };
  void poll();
  return () => {
    stopped = true;
  };
}

/** keepAnswer records a lender's answer in the flow as the screens after it read it. */
function keepAnswer(decision: Decision, providerKey: string, mode: ApplyMode, body: Record<string, unknown>): Decision {
  const d: Decision = { ...decision, providerKey: decision.providerKey || providerKey };
  delete d.cascaded;
  // The treatment amount the patient entered is now the application's: every lender after this one decides on it.
  const entered = body.purchaseAmountCents;
  if (typeof entered === 'number' && !flow.get().purchaseAmountCents) flow.set({ purchaseAmountCents: entered });
  if (normalizeCode(d.responseCode) === 'declined' && !flow.get().declinedBy.includes(d.providerKey)) {
    flow.set({ declinedBy: [...flow.get().declinedBy, d.providerKey] });
  }
  if (mode === 'full') flow.response(d.providerKey, { apply: d, stipulations: d.stipulations ?? [] });
  else flow.response(d.providerKey, { preAuth: { ...d, operation: opFor(mode) }, stipulations: d.stipulations ?? [] });
  return d;
}

/**
 * submitOnce asks one lender, with the later lenders of cascade for the
 * server to ask within the same request. It answers the lender's decision
 * and the later lenders' decisions the server got, in order, each already
 * kept in the flow.
 */
async function submitOnce(
  deps: SubmitDeps,
  providerKey: string,
  mode: ApplyMode,
  resubmitRoute: string,
  handled: boolean,
  cascade: CascadeStep[] = [],
): Promise<{ decision: Decision; cascaded: Decision[] }> {
  showAsking(providerKey, mode);
  const body: SubmitBody = await bodyFor(deps, providerKey, mode);
  if (cascade.length) body.cascade = cascade;
  const stopFollowing = cascade.length ? followProgress(cascade) : () => {};
  let decision: Decision;
  try {
    decision = await api.post<Decision>(lenderPath(providerKey, opFor(mode)), body, {
      apply: handled ? { providerKey, resubmitRoute } : undefined,
      noErrorHandling: !handled,
      // Changed details after this lender answered: the patient is shown that answer (submitDecision).
      ownCodes: ['idempotency_mismatch'],
      lenderStep: true,
    });
  } catch (e) {
    if (isStillWorking(e)) e.providerKey = providerKey;
    throw e;
  } finally {
    stopFollowing();
  }
  const cascaded = decision.cascaded ?? [];
  const first = keepAnswer(decision, providerKey, mode, body);
  const later = cascaded.map((d) => {
    const step = cascade.find((c) => c.provider === d.providerKey);
    return keepAnswer(d, d.providerKey, step?.applyMode ?? mode, step?.request ?? {});
  });
  return { decision: first, cascaded: later };
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
    // The later lenders' answers the server got within the first submit, in order.
    let answered: Decision[];
    try {
      showAsking(providerKey, mode);
      const cascade = await cascadeSteps(deps, providerKey);
      ({ decision: first, cascaded: answered } = await submitOnce(deps, providerKey, mode, resubmitRoute, true, cascade));
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
      // What the server already asked within the first submit is not asked again.
      if (answered[0]?.providerKey === next.provider) return answered.shift()!;
      answered = [];
      // Only a consent the patient gave on a screen that showed this lender's document.
      if (!consentFor(next.provider, next.applyMode)) throw new ConsentNeeded(next);
      try {
        return (await submitOnce(deps, next.provider, next.applyMode, resubmitRoute, false)).decision;
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
