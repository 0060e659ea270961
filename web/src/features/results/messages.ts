import type { Decision } from '@/lib/api/types';
import { joinNames } from '@/lib/consent/chain';
import { normalizeCode } from '@/lib/decision';
import { flow, providerName, type FlowState } from '@/stores/flow';
import { wording } from '@/lib/wording';

/**
 * What the patient is told about lenders' answers: the waiting words of a
 * submit, the decline wording of the declined screen, and the notices shown
 * on the next lender's screen (by FlowNotice) after a cascade.
 */

/** decisionProgress is the waiting message while a lender decides (docs/behaviour.md, "The waterfall"). */
export function decisionProgress(op: string, lender: string): string {
  return op === 'apply' ? `Sending your application to ${lender}…` : `Checking your options with ${lender}…`;
}

/** declineMessage names every lender that declined, never in wording that could pass for the lender's own notice. */
export function declineMessage(names: readonly string[]): string {
  if (!names.length) return '';
  return `${joinNames(names)} couldn’t approve this application. ${names.length > 1 ? 'Each will' : 'They will'} send you a letter explaining why within 7–10 business days.`;
}

/** pendingMessage: lenders still reviewing. Not a decline: no letter is promised for them. */
export function pendingMessage(names: readonly string[]): string {
  if (!names.length) return '';
  return `${joinNames(names)} ${names.length > 1 ? 'are' : 'is'} still reviewing your application, so there is no offer yet.`;
}

/** unansweredMessage: lenders we could not reach. Nothing is known of their decision, so none is implied. */
export function unansweredMessage(names: readonly string[]): string {
  if (!names.length) return '';
  return `We didn’t get an answer from ${joinNames(names)}.`;
}

/** noOfferMessage: lenders whose quick check had no offer. */
export function noOfferMessage(names: readonly string[]): string {
  if (!names.length) return '';
  return `${joinNames(names)} couldn’t make an offer.`;
}

/** How a lender's latest answer in this session reads to the patient, whatever screen the routing chose. */
export type Outcome = 'declined' | 'pending' | 'unanswered' | 'nooffer';

const OUTCOME_OF: Record<string, Outcome> = { declined: 'declined', pending: 'pending', error: 'unanswered', nooffer: 'nooffer' };

/** outcomeOf answers a lender's latest answer in this session, or null (none yet, or a positive one). */
export function outcomeOf(s: Pick<FlowState, 'responses'>, providerKey: string): Outcome | null {
  const r = s.responses[providerKey];
  const d = r?.apply ?? r?.preAuth;
  return d ? (OUTCOME_OF[normalizeCode(d.responseCode)] ?? null) : null;
}

export type Outcomes = Record<Outcome, string[]>;

/**
 * sessionOutcomes groups the lenders of this session by what they answered
 * last, in the order they answered: a lender that declined (declinedBy) and
 * was not asked again stays declined.
 */
export function sessionOutcomes(s: Pick<FlowState, 'responses' | 'declinedBy'>): Outcomes {
  const out: Outcomes = { declined: [], pending: [], unanswered: [], nooffer: [] };
  const keys = [...s.declinedBy, ...Object.keys(s.responses).filter((k) => !s.declinedBy.includes(k))];
  for (const k of keys) {
    const o = outcomeOf(s, k) ?? (s.declinedBy.includes(k) ? 'declined' : null);
    if (o) out[o].push(k);
  }
  return out;
}

/** outcomeLines says what happened with each lender: declines, then reviews still going on, then the lenders not reached, then no offers. */
export function outcomeLines(o: Outcomes, name: (providerKey: string) => string): string[] {
  const names = (keys: string[]) => keys.map(name);
  return [
    declineMessage(names(o.declined)),
    pendingMessage(names(o.pending)),
    unansweredMessage(names(o.unanswered)),
    noOfferMessage(names(o.nooffer)),
  ].filter(Boolean);
}

/**
 * noFinancingSummary is the declined screen's heading and words: it is
 * reached whenever no lender made an offer, so it says what each lender
 * did — a decline only for a lender that declined (docs/behaviour.md,
 * "Decision routing").
 */
export function noFinancingSummary(
  s: Pick<FlowState, 'responses' | 'declinedBy'>,
  name: (providerKey: string) => string,
  currentKey: string,
  staff = wording(null).staff,
): { title: string; lines: string[] } {
  const o = sessionOutcomes(s);
  const lines = outcomeLines(o, name);
  if (o.unanswered.length) lines.push(`Please don’t apply again — ask ${staff} to check the status of your application.`);
  else if (o.pending.length) lines.push('You don’t need to apply again.');
  if (o.declined.length) return { title: 'This application wasn’t approved', lines };
  if (o.pending.length) return { title: 'No offer yet', lines };
  if (o.unanswered.length) return { title: 'We didn’t get an answer', lines };
  if (o.nooffer.length) return { title: 'No offer this time', lines };
  return { title: 'No offer this time', lines: [`There is no offer from ${name(currentKey)}.`] };
}

/** noOfferScreen is the heading and first words of the no-offer screen for the lender whose quick check it follows. */
export function noOfferScreen(outcome: Outcome | null, name: string): { title: string; lead: string } {
  switch (outcome) {
    case 'pending':
      return { title: 'No offer yet', lead: `${name} is still reviewing your quick check, so there is no offer from it yet.` };
    case 'unanswered':
      return { title: 'We didn’t get an answer', lead: `We didn’t get an answer from ${name}, so there is no offer from its quick check.` };
    default:
      return { title: 'No offer from the quick check', lead: `${name} couldn’t make you an offer from the quick check.` };
  }
}

/**
 * What the patient is told before the next lender: every lender that declined
 * in this session, then who in this cascade is still reviewing, did not
 * answer or had no offer.
 */
function chainSummary(chain: Decision[]): string[] {
  const named = (code: string) => chain.filter((d) => normalizeCode(d.responseCode) === code).map((d) => providerName(d.providerKey));
  return [
    declineMessage(flow.get().declinedBy.map((k) => providerName(k))),
    pendingMessage(named('pending')),
    unansweredMessage(named('error')),
    noOfferMessage(named('nooffer')),
  ].filter(Boolean);
}

/** switchNotice explains why the patient now sees another lender. */
export function switchNotice(chain: Decision[], nextProvider: string): string {
  return [...chainSummary(chain), `You can still check your options with ${providerName(nextProvider)}. Your details are already filled in.`].join(
    ' ',
  );
}

/** consentNotice explains why the patient is asked to agree again before the next lender checks. */
export function consentNotice(chain: Decision[], nextProvider: string): string {
  const name = providerName(nextProvider);
  return [...chainSummary(chain), `You can still check your options with ${name}. First, please read what you agree to with ${name} below.`].join(
    ' ',
  );
}
