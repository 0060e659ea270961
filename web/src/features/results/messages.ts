import type { Decision } from '@/lib/api/types';
import { joinNames } from '@/lib/consent/chain';
import { normalizeCode } from '@/lib/decision';
import { t } from '@/lib/i18n';
import { flow, lenderName, type FlowState } from '@/stores/flow';
import { wording } from '@/lib/wording';

/**
 * What the patient is told about lenders' answers: the waiting words of a
 * submit, the decline wording of the declined screen, and the notices shown
 * on the next lender's screen (by FlowNotice) after a cascade. Each is
 * worded when called (the results messages of the catalogues): a screen
 * calls them as it renders, a submit as it sets its waiting words or notice.
 */

/** decisionProgress is the waiting message while a lender decides (docs/behaviour.md, "The waterfall"). */
export function decisionProgress(op: string, lender: string): string {
  return op === 'apply' ? t('results.progress.apply', { lender }) : t('results.progress.check', { lender });
}

/**
 * decisionNext says, while a lender decides, what happens if it does not
 * answer (docs/behaviour.md, "The waterfall"): the lender the app asks next
 * on its own, or, when there is none, that the patient will see their
 * options.
 */
export function decisionNext(lender: string, next: string | null): string {
  return next ? t('results.progress.nextLender', { lender, next }) : t('results.progress.thenOptions', { lender });
}

/** declineMessage names every lender that declined, never in wording that could pass for the lender's own notice. */
export function declineMessage(names: readonly string[]): string {
  if (!names.length) return '';
  return t('results.outcome.declined', { names: joinNames(names), count: names.length });
}

/** pendingMessage: lenders still reviewing. Not a decline: no letter is promised for them. */
export function pendingMessage(names: readonly string[]): string {
  if (!names.length) return '';
  return t('results.outcome.pending', { names: joinNames(names), count: names.length });
}

/** unansweredMessage: lenders we could not reach. Nothing is known of their decision, so none is implied. */
export function unansweredMessage(names: readonly string[]): string {
  if (!names.length) return '';
  return t('results.outcome.unanswered', { names: joinNames(names) });
}

/** noOfferMessage: lenders whose quick check had no offer. */
export function noOfferMessage(names: readonly string[]): string {
  if (!names.length) return '';
  return t('results.outcome.nooffer', { names: joinNames(names), count: names.length });
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
  if (o.unanswered.length) lines.push(t('results.summary.askStatus', { staff }));
  else if (o.pending.length) lines.push(t('results.noNeedToApply'));
  if (o.declined.length) return { title: t('results.summary.declinedTitle'), lines };
  if (o.pending.length) return { title: t('results.titles.noOfferYet'), lines };
  if (o.unanswered.length) return { title: t('results.titles.noAnswer'), lines };
  if (o.nooffer.length) return { title: t('results.summary.noOfferTitle'), lines };
  return { title: t('results.summary.noOfferTitle'), lines: [t('results.summary.noneFrom', { name: name(currentKey) })] };
}

/** noOfferScreen is the heading and first words of the no-offer screen for the lender whose quick check it follows. */
export function noOfferScreen(outcome: Outcome | null, name: string): { title: string; lead: string } {
  switch (outcome) {
    case 'pending':
      return { title: t('results.titles.noOfferYet'), lead: t('results.noOfferScreen.pending', { name }) };
    case 'unanswered':
      return { title: t('results.titles.noAnswer'), lead: t('results.noOfferScreen.unanswered', { name }) };
    default:
      return { title: t('results.noOfferScreen.title'), lead: t('results.noOfferScreen.lead', { name }) };
  }
}

/**
 * noOfferContent is the no-offer screen (docs/behaviour.md, "Decision
 * routing"): its heading and words, and the lender whose standard
 * application it offers (offer), or null for none. The offer is the office's
 * first lender (offerKey, when it takes a standard application), and the
 * words name that lender first, then what the session's other lenders did.
 * A lender we could not reach rules the offer out: the patient is told not
 * to apply again (spec §8), so the screen says what the declined screen
 * says, with no standard application.
 */
export function noOfferContent(
  s: Pick<FlowState, 'responses' | 'declinedBy'>,
  name: (providerKey: string) => string,
  currentKey: string,
  offerKey: string | null,
  staff = wording(null).staff,
): { title: string; lines: string[]; offer: string | null } {
  const o = sessionOutcomes(s);
  if (!offerKey || o.unanswered.length) return { ...noFinancingSummary(s, name, currentKey, staff), offer: null };
  const others: Outcomes = { declined: [], pending: [], unanswered: [], nooffer: [] };
  for (const k of Object.keys(o) as Outcome[]) others[k] = o[k].filter((p) => p !== offerKey);
  const own = outcomeOf(s, offerKey);
  if (!own) return { title: t('results.noOfferScreen.title'), lines: outcomeLines(others, name), offer: offerKey };
  const { title, lead } = noOfferScreen(own, name(offerKey));
  return { title, lines: [lead, ...outcomeLines(others, name)], offer: offerKey };
}

/**
 * What the patient is told before the next lender: every lender that declined
 * in this session, then who in this cascade is still reviewing, did not
 * answer or had no offer.
 */
function chainSummary(chain: Decision[]): string[] {
  const named = (code: string) => chain.filter((d) => normalizeCode(d.responseCode) === code).map((d) => lenderName(d.providerKey));
  return [
    declineMessage(flow.get().declinedBy.map((k) => lenderName(k))),
    pendingMessage(named('pending')),
    unansweredMessage(named('error')),
    noOfferMessage(named('nooffer')),
  ].filter(Boolean);
}

/** switchNotice explains why the patient now sees another lender. */
export function switchNotice(chain: Decision[], nextLender: string): string {
  return [...chainSummary(chain), t('results.notice.switch', { name: lenderName(nextLender) })].join(' ');
}

/** consentNotice explains why the patient is asked to agree again before the next lender checks. */
export function consentNotice(chain: Decision[], nextLender: string): string {
  return [...chainSummary(chain), t('results.notice.consent', { name: lenderName(nextLender) })].join(' ');
}

/** alreadyAnsweredNotice: the patient changed details after a lender answered; that answer stands, and the changes were not sent. */
export function alreadyAnsweredNotice(providerKey: string): string {
  return t('results.notice.alreadyAnswered', { name: lenderName(providerKey) });
}
