import { isStillWorking } from './api/client';
import type { ApplyMode, Decision, NextAction } from './api/types';

/** Decision response codes (docs/behaviour.md, "Decision routing"). */
export const RESPONSE_CODES = ['approved', 'declined', 'error', 'nooffer', 'pending', 'preapproved', 'prequalified'] as const;
export const POSITIVE_CODES = ['approved', 'preapproved', 'prequalified'] as const;

export function isPositive(code: string | undefined | null): boolean {
  return (POSITIVE_CODES as readonly string[]).includes(normalizeCode(code));
}

/** normalizeCode lower-cases and accepts spellings like "no_offer" or "existing_account". */
export function normalizeCode(code: string | undefined | null): string {
  const c = (code ?? '').toLowerCase().replace(/[\s-]/g, '_');
  if (c === 'no_offer') return 'nooffer';
  if (c === 'existing' || c === 'existingaccount') return 'existing_account';
  return c;
}

export interface RoutingContext {
  /** The apply mode in force (prescreen displays as prequalify). */
  mode: ApplyMode;
  /** True while pre-authorising (prequalify / prescreen): error and pending count as nooffer. */
  preAuth: boolean;
  /** Whether the office's primary lender supports full application mode (catalogue `supportsFullAppMode`). */
  primarySupportsFull: boolean;
  /**
   * A lender of this session could not be reached (its latest answer is
   * error): no standard application may follow (spec §8, a communication
   * error is told not to apply again), so no offer goes to `declined`, which
   * says so (see unansweredIn).
   */
  unanswered?: boolean;
  /** The time to compare an offer's expiry with, in milliseconds (Date.now() when left out). */
  now?: number;
}

/**
 * LenderRouting is what one lender changes in the general table of
 * docs/behaviour.md, "Decision routing". Paths are relative to
 * /providers/{providerKey}/.
 */
export interface LenderRouting {
  /** Where a pending answer goes, in every mode, from its pending reasons. */
  pending?: (reasons: readonly string[]) => string;
  /** Where a positive answer goes when its offer has already expired (expiresAt in the past). */
  expired?: string;
  /** Where resume/after-full-apply goes, from the full application's pending reasons. */
  afterFullApply?: (reasons: readonly string[]) => string;
}

/**
 * LENDER_ROUTING is the one table of lender-specific routing. Whatever the
 * catalogue says with a flag (supportsFullAppMode) is read from the flag
 * instead; only what no flag describes is kept here.
 */
export const LENDER_ROUTING: Readonly<Record<string, LenderRouting>> = {
  lendingclub_standard: {
    // An email still to confirm is all that stands between the patient and the offer.
    pending: (reasons) => (reasons.includes('verify_email') ? 'approved' : 'true-pending'),
    expired: 'expired',
  },
  proceed_standard: {
    // A loan agreement to sign or a document to send: the signing screen; otherwise the plans.
    afterFullApply: (reasons) => (reasons.includes('esign') || reasons.includes('additional_documents_needed') ? 'terms' : 'paymentPlans'),
  },
};

/** lenderRouting answers a lender's overrides (none for most lenders). */
export function lenderRouting(providerKey: string | undefined | null): LenderRouting {
  return LENDER_ROUTING[providerKey ?? ''] ?? {};
}

/** isExpired: the decision carries an expiry that has passed. */
export function isExpired(expiresAt: string | undefined | null, now: number = Date.now()): boolean {
  if (!expiresAt) return false;
  const t = Date.parse(expiresAt);
  return Number.isFinite(t) && t <= now;
}

export type RoutedDecision = Pick<Decision, 'responseCode' | 'existingAccount'> &
  Partial<Pick<Decision, 'providerKey' | 'pendingReasons' | 'expiresAt' | 'stipulations'>>;

/**
 * pendingForAll is where a pending answer goes at every lender, before any
 * lender's override and the soft-pull rule: a fraud and identity review
 * (red_flag) to `under-review`, a lender waiting for the patient's income to
 * the patch screen (docs/behaviour.md, "Pending, patches and stipulations").
 */
function pendingForAll(decision: RoutedDecision): string | null {
  if ((decision.pendingReasons ?? []).includes('red_flag')) return 'under-review';
  if ((decision.stipulations ?? []).some((s) => s.type === 'income')) return 'patch/income';
  return null;
}

/**
 * decisionDestination is the routing table (docs/behaviour.md, "Decision
 * routing"), with the lender overrides of LENDER_ROUTING. It answers a path
 * relative to /providers/{providerKey}/, or null for an unknown code (the
 * caller logs it and shows the general error page).
 */
export function decisionDestination(decision: RoutedDecision, ctx: RoutingContext): string | null {
  if (decision.existingAccount) return 'existingAccount';
  const lender = lenderRouting(decision.providerKey);
  let code = normalizeCode(decision.responseCode);
  const forAll = code === 'pending' ? pendingForAll(decision) : null;
  if (forAll) return forAll;
  // A lender that reads its pending reasons itself decides before the soft-pull rule below.
  if (code === 'pending' && lender.pending) return lender.pending(decision.pendingReasons ?? []);
  if (lender.expired && isPositive(code) && isExpired(decision.expiresAt, ctx.now)) return lender.expired;
  if (ctx.preAuth && (code === 'error' || code === 'pending')) code = 'nooffer';
  switch (code) {
    case 'approved':
      return ctx.mode === 'full' ? 'paymentPlans' : 'approved';
    case 'declined':
      return 'declined';
    case 'error':
      return 'error';
    case 'nooffer':
      // The no-offer screen offers the standard (full) application: never after a full application,
      // only where the primary lender takes one, and never after a lender we could not reach.
      return ctx.mode !== 'full' && ctx.primarySupportsFull && !ctx.unanswered ? 'nooffer' : 'declined';
    case 'pending':
      return 'pending';
    case 'preapproved':
      return 'preapproved';
    case 'prequalified':
      return 'prequalified';
    case 'resume':
      return 'resume?from=decision';
    case 'start':
      return `modes/${ctx.mode}/start`;
    case 'existing_account':
      return 'existingAccount';
    default:
      return null;
  }
}

/** unansweredIn: some lender's latest answer in this session is error (we could not reach it); see RoutingContext.unanswered. */
export function unansweredIn(
  responses: Readonly<Record<string, { apply?: { responseCode?: string }; preAuth?: { responseCode?: string } }>>,
): boolean {
  return Object.values(responses).some((r) => normalizeCode((r.apply ?? r.preAuth)?.responseCode) === 'error');
}

/**
 * afterFullApplyDestination is where resume/after-full-apply leads: the
 * lender's own rule where it has one, otherwise the plans when there are
 * some and the application form when not.
 */
export function afterFullApplyDestination(
  providerKey: string,
  apply: Pick<Decision, 'pendingReasons'> | undefined,
  hasPlans: boolean,
): string | null {
  const rule = lenderRouting(providerKey).afterFullApply;
  if (rule) return rule(apply?.pendingReasons ?? []);
  return hasPlans ? 'paymentPlans' : null;
}

export interface CascadeResult {
  /** The decision to route on. */
  final: Decision;
  /** Every decision received, in order. */
  chain: Decision[];
  /** Set when the last result names a next lender without autoSubmit: go there. */
  switchTo?: NextAction;
  /**
   * Set when the next lender would be submitted automatically but the
   * patient was not shown (or no longer has) its authorisation: the cascade
   * stops and the patient is asked on that lender's own consent screen.
   */
  consentNeeded?: NextAction;
}

/** ConsentNeeded is thrown by a cascade submit that has no consent the patient gave for that lender. */
export class ConsentNeeded extends Error {
  constructor(readonly next: NextAction) {
    super(`no consent shown for ${next.provider}`);
    this.name = 'ConsentNeeded';
  }
}

/**
 * runCascade follows `next` with autoSubmit (docs/behaviour.md, "The waterfall"): results chain, the
 * first positive result wins, otherwise the latest result is used; if a
 * submit fails, the original result is used. A next lender that already has
 * a decision (resume) is not submitted again: the cascade stops there. A
 * submit that throws ConsentNeeded stops the cascade with `consentNeeded`.
 * A submit whose lender is still working on it after every retry (see
 * ApiError.stillWorking) is not a failure to route on: it is thrown on, so
 * the patient is told and can try again.
 */
export async function runCascade(first: Decision, submit: (next: NextAction) => Promise<Decision>, maxSteps = 12): Promise<CascadeResult> {
  const chain: Decision[] = [first];
  let current = first;
  for (let i = 0; i < maxSteps; i++) {
    if (isPositive(current.responseCode)) return { final: current, chain };
    const next = current.next;
    if (!next) return { final: current, chain };
    // A lender that already decided is not asked again: its answer stands.
    if (next.resume && next.autoSubmit) return { final: current, chain };
    if (!next.autoSubmit) return { final: current, chain, switchTo: next };
    let result: Decision;
    try {
      result = await submit(next);
    } catch (e) {
      if (e instanceof ConsentNeeded) return { final: current, chain, consentNeeded: next };
      if (isStillWorking(e)) throw e;
      return { final: first, chain };
    }
    chain.push(result);
    current = result;
  }
  return { final: current, chain };
}

/** operationMode maps a pre-authorisation operation to its apply mode. */
export function operationMode(operation: string, earlier?: ApplyMode): ApplyMode {
  if (operation === 'apply') return 'full';
  if (operation === 'prequalify') return 'prequalify';
  if (operation === 'prescreen') return 'prescreen';
  if (operation === 'accept_offer') return earlier ?? 'prequalify';
  return 'prequalify';
}
