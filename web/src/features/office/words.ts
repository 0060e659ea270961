import { formatCents } from '@/lib/money';
import type { ResponseCode } from '@/lib/api/types';
import type { OfficeApplication, OfficeApplicationStatus, OfficeEvent, OfficeLender, OfficePlan } from './api/applications';

/*
 * The office's words for what the server answers in codes: statuses,
 * lenders' answers, plans and the history's events. Times are the
 * browser's own locale and time zone (the list asks for its day in that
 * zone too).
 */

/** STATUS_WORDS in the order the status filter offers them. */
export const STATUS_WORDS: Record<OfficeApplicationStatus, string> = {
  invited: 'Invited',
  invite_expired: 'Link expired',
  invite_canceled: 'Invitation canceled',
  in_progress: 'In progress',
  pending: 'Lender still deciding',
  approved: 'Approved',
  declined: 'Declined',
  no_offer: 'No offer',
  offer_expired: 'Offer expired',
  signed: 'Signed',
  completed: 'Completed',
  canceled: 'Canceled',
  timed_out: 'Timed out',
};

export const STATUSES = Object.keys(STATUS_WORDS) as OfficeApplicationStatus[];

/** statusTone is the badge's colour; the words always say the same without it. */
export function statusTone(s: OfficeApplicationStatus): 'ok' | 'warn' | 'off' | 'info' {
  if (s === 'approved' || s === 'signed' || s === 'completed') return 'ok';
  if (s === 'declined' || s === 'no_offer' || s === 'pending') return 'warn';
  if (s === 'invite_expired' || s === 'invite_canceled' || s === 'offer_expired' || s === 'canceled' || s === 'timed_out') return 'off';
  return 'info';
}

const ANSWER_WORDS: Record<ResponseCode, string> = {
  approved: 'Approved',
  preapproved: 'Preapproved',
  prequalified: 'Prequalified',
  pending: 'Still deciding',
  declined: 'Declined',
  nooffer: 'No offer',
  error: 'Could not answer',
};

/** lenderAnswer is a lender's latest answer in words; "No answer yet" while it has none. */
export function lenderAnswer(l: OfficeLender): string {
  return l.responseCode ? ANSWER_WORDS[l.responseCode] : 'No answer yet';
}

export function patientName(a: Pick<OfficeApplication, 'firstName' | 'lastName'>): string {
  return `${a.firstName} ${a.lastName}`.trim();
}

const aprNumber = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** paymentWords: the schedule, "23 × $224.44 + $224.46 final" or "24 × $224.44"; a plan chosen before schedules were kept has its monthly amount only. */
function paymentWords(p: OfficePlan, months: string): string {
  if (p.paymentCount <= 0) return `${formatCents(p.monthlyAmountCents)}/mo × ${months}`;
  if (p.paymentCount === 1 || p.finalPaymentCents === p.monthlyAmountCents) return `${p.paymentCount} × ${formatCents(p.monthlyAmountCents)}`;
  return `${p.paymentCount - 1} × ${formatCents(p.monthlyAmountCents)} + ${formatCents(p.finalPaymentCents)} final`;
}

/**
 * planWords: the plan as the patient saw it — the down payment, the
 * payments, and the rate: "$500.00 down, 23 × $224.44 + $224.46 final,
 * 17.9% APR". A deferred-interest promotion says that no interest is due if
 * paid in full in time and the APR that applies after; a lease (not credit)
 * states no APR, only what it costs in all.
 */
export function planWords(p: OfficePlan): string {
  const months = `${p.durationMonths} ${p.durationMonths === 1 ? 'month' : 'months'}`;
  const down = p.downPaymentCents > 0 ? `${formatCents(p.downPaymentCents)} down, ` : '';
  let rate = `${aprNumber.format(p.apr)}% APR`;
  if (p.productType === 'lease')
    rate = `lease-to-own, ${formatCents(p.totalOfPaymentsCents)} in payments for a cash price of ${formatCents(p.amountFinancedCents)}`;
  else if (p.typeId === 'deferred_interest') rate = `no interest if paid in full in ${months} (${aprNumber.format(p.apr)}% APR after)`;
  return `${down}${paymentWords(p, months)}, ${rate}`;
}

export const EXPERIENCE_WORDS = { in_store: 'Here in the office', at_home: 'At home, on their own phone' } as const;

/** What each kind of history event means, with the lender's name where the event is a lender's. */
const EVENT_WORDS: Record<string, (lender: string) => string> = {
  'flow.started': () => 'Opened the link',
  'flow.restarted': () => 'Started again',
  'flow.finished': () => 'Finished',
  'decision.recorded': (l) => `${l || 'A lender'} answered`,
  'decision.updated': (l) => `${l || 'A lender'} changed its answer`,
  'plans.offered': (l) => `${l || 'A lender'} offered plans`,
  'plan.selected': () => 'Chose a plan',
  'plan.confirmed': () => 'Confirmed the plan',
  'offer.accepted': () => 'Accepted the offer',
  'agreement.agreed': () => 'Agreed to the agreement',
  'esign.signed': () => 'Signed',
  'application.completed': () => 'Completed',
  'application.patched': (l) => `Sent what ${l || 'the lender'} asked for`,
  'payment.down_payment': () => 'Down payment recorded',
  'payment.card_added': () => 'Added a card',
  'payment.bank_account_added': () => 'Added a bank account',
  'quiz.passed': () => 'Passed the identity questions',
  'quiz.answers.failed': () => 'Did not pass the identity questions',
  'test_case.applied': () => 'Test case applied',
  'application.amount_changed': () => 'The office changed the treatment amount',
  'offer.amount.done': (l) => `${l || 'The lender'} let the accepted offer go`,
  'offer.amount.refused': (l) => `${l || 'The lender'} kept the accepted offer`,
  'case.void.done': () => 'Canceled with the lender',
  'case.void.too_late': () => 'Too late to cancel: already funded',
  'case.refund.done': () => 'Refunded',
  'case.refund.refused': () => 'The lender refused a refund',
};

/**
 * NO_LENDER_SUFFIX are the events whose words name the lender already, and
 * the session's own events, which carry the lender the patient was at
 * ("Opened the link (Synchrony)" would read as if Synchrony had opened it).
 */
const NO_LENDER_SUFFIX = new Set([
  'decision.recorded',
  'decision.updated',
  'plans.offered',
  'application.patched',
  'flow.started',
  'flow.restarted',
  'flow.finished',
  'test_case.applied',
  'application.amount_changed',
  'offer.amount.done',
  'offer.amount.refused',
]);

/** FINISH_WORDS: how a visit ended, as its flow.finished event recorded it. */
const FINISH_WORDS: Record<NonNullable<OfficeEvent['outcome']>, string> = {
  completed: 'Finished: signed and completed',
  no_financing: 'Finished without taking an offer',
  declined: 'Finished: declined',
  no_offer: 'Finished: no offer',
  offer_expired: 'Finished: the offer had expired',
  cancel: 'Finished: canceled by the patient',
  pending: 'Finished: a lender is still deciding',
  timeout: 'Finished: timed out',
};

/** eventWords: the event in plain words, "(Lender)" after those of one lender; an unknown type as it is. */
export function eventWords(e: OfficeEvent): string {
  if (e.type === 'flow.finished' && e.outcome) return FINISH_WORDS[e.outcome] ?? EVENT_WORDS['flow.finished']!('');
  const fn = EVENT_WORDS[e.type];
  if (!fn) return e.lenderName ? `${e.type} (${e.lenderName})` : e.type;
  const lender = e.lenderName ?? '';
  const text = fn(lender);
  return lender && !NO_LENDER_SUFFIX.has(e.type) ? `${text} (${lender})` : text;
}

const timeOnly = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const weekdayTime = new Intl.DateTimeFormat(undefined, { weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

/** timeOf: "9:41 AM", for a row of a day already named. */
export const timeOf = (iso: string) => timeOnly.format(new Date(iso));
/** dateTimeOf: "Jan 2, 2030, 9:41 AM". */
export const dateTimeOf = (iso: string) => dateTime.format(new Date(iso));
/** untilOf: "Thu, Jan 2, 9:41 AM", for a link's expiry a day away. */
export const untilOf = (iso: string) => weekdayTime.format(new Date(iso));

/** dayWords: "Thursday, January 2, 2030" for the list's YYYY-MM-DD. */
export function dayWords(day: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return day;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return d.toLocaleDateString(undefined, { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' });
}

/** OfficeMessage is one message of an invitation, as the day's list says what became of it. */
export type OfficeMessage = NonNullable<OfficeApplication['messages']>[number];

/** CARRIER_WORDS say the commonest reasons a carrier gives for a text not delivered (Twilio's error codes). */
const CARRIER_WORDS: Record<number, string> = {
  30003: 'the phone is off or out of reach',
  30004: 'the number blocks texts',
  30005: 'the number does not exist',
  30006: 'the number is a landline',
  30007: 'the carrier filtered it',
};

/** messageWords: "Text to (•••) •••-0134: delivered", and why one was not. */
export function messageWords(m: OfficeMessage): string {
  const what = `${m.channel === 'sms' ? 'Text' : 'Email'} to ${m.to}`;
  const again = m.sends > 1 ? ` (sent ${m.sends} times)` : '';
  switch (m.state) {
    case 'sending':
      return `${what}: sending${again}`;
    case 'held':
      return `${what}: kept back, sent only if the text does not arrive`;
    case 'sent':
      return `${what}: sent${again}`;
    case 'delivered':
      return `${what}: delivered${again}`;
    case 'undelivered':
      return `${what}: not delivered${m.errorCode ? ` (${CARRIER_WORDS[m.errorCode] ?? `error ${m.errorCode}`})` : ''}${again}`;
    case 'opted_out':
      return `${what}: opted out, the patient asked this office to stop texting them. Hand over the QR code instead.`;
    case 'failed':
      return `${what}: could not be sent${again}`;
  }
}

/** canResend: an invitation whose link can go again — it went somewhere, and not only to a number that opted out. */
export function canResend(r: OfficeApplication): boolean {
  const ms = r.messages ?? [];
  return r.status === 'invited' && ms.some((m) => m.state !== 'opted_out') && ms.every((m) => m.sends < MAX_SENDS);
}

/** MAX_SENDS is how often the server sends one invitation's link by one channel (office/invite.go). */
export const MAX_SENDS = 3;

/** OfficeRecordsState is where a case's posts to the patient's ledger in Open Dental stand. */
export type OfficeRecordsState = NonNullable<OfficeApplication['records']>;

/** recordsWords: "Posted to Open Dental", or what keeps it from being posted. */
export function recordsWords(r: OfficeRecordsState): string {
  const what = r.kind === 'refund' ? 'Refund' : 'Payment';
  switch (r.state) {
    case 'posted':
      return `${what} posted to Open Dental`;
    case 'due':
    case 'posting':
      return `${what} being posted to Open Dental`;
    case 'waiting':
      return `${what} not yet in Open Dental: ${r.error ?? 'waiting for Open Dental.'}`;
    case 'failed':
      return `${what} not posted to Open Dental: ${r.error ?? 'Open Dental refused it.'}`;
  }
}
