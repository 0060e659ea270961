import type { PaymentPlan } from './api/types';
import { centsIn, numberFormat } from './amounts';
import { locale, t } from './i18n';

/** formatCents shows integer cents as dollars in the app's language: 450000 → "$4,500.00" (or "$4,500" with whole). */
export function formatCents(cents: number | null | undefined, opts: { whole?: boolean } = {}): string {
  return centsIn(locale(), cents, opts);
}

/** parseDollars turns "4,500.5" or "$4500" into cents; null when it is not a number. */
export function parseDollars(text: string): number | null {
  const cleaned = text.replace(/[$,\s]/g, '');
  if (!/^\d+(\.\d{0,2})?$/.test(cleaned)) return null;
  const [d, c = ''] = cleaned.split('.');
  return Number(d) * 100 + Number((c + '00').slice(0, 2));
}

/** formatApr shows an APR with two decimals: 26.99 → "26.99%". */
export function formatApr(apr: number): string {
  return `${numberFormat(locale(), 'apr').format(apr)}%`;
}

/** clampEstimate keeps an estimator amount (dollars) between min and max on a 500-dollar step. */
export function clampEstimate(dollars: number, min: number, max: number): number {
  if (!Number.isFinite(dollars)) return min;
  return Math.min(Math.max(Math.round(dollars), min), max);
}

/**
 * planAmountCents is the amount plans are first priced for (docs/behaviour.md, "Plans and offers"):
 * the smaller of the approved amount and the patient's share of the treatment (the treatment
 * less the insurance benefits expected), or whichever is known. Insurance pays its part; the
 * patient finances only theirs.
 */
export function planAmountCents(approvedCents: number, purchaseCents: number, insuranceCents = 0): number {
  const share = purchaseCents > 0 ? Math.max(0, purchaseCents - Math.max(0, insuranceCents)) : 0;
  if (approvedCents <= 0) return share;
  if (share <= 0) return approvedCents;
  return Math.min(approvedCents, share);
}

/** The part of a plan that says its payments (api/openapi.yaml, PaymentPlan). */
export type PlanSchedule = Pick<PaymentPlan, 'paymentCount' | 'monthlyAmountCents' | 'finalPaymentCents'>;

/**
 * ScheduleParts is a plan's payments as a patient reads them: `count`
 * payments of `amountCents`, then one final payment of `finalCents` when the
 * last differs from the others.
 */
export interface ScheduleParts {
  count: number;
  amountCents: number;
  finalCents?: number;
}

/**
 * scheduleParts splits a plan's schedule as the server stated it, computing
 * no amount: a single payment is the final one; a final payment equal to the
 * others is one of them.
 */
export function scheduleParts(p: PlanSchedule): ScheduleParts {
  if (p.paymentCount <= 1) return { count: p.paymentCount, amountCents: p.finalPaymentCents };
  if (p.finalPaymentCents === p.monthlyAmountCents) return { count: p.paymentCount, amountCents: p.monthlyAmountCents };
  return { count: p.paymentCount - 1, amountCents: p.monthlyAmountCents, finalCents: p.finalPaymentCents };
}

/** paymentsLine says a plan's payments in the app's language: "24 payments of $224.84", or "23 payments of $225.00 and a final payment of $208.98". */
export function paymentsLine(p: PlanSchedule): string {
  const s = scheduleParts(p);
  const amount = formatCents(s.amountCents);
  if (s.finalCents === undefined) return t('offers.card.payments', { count: s.count, amount });
  return t('offers.card.paymentsAndFinal', { count: s.count, amount, final: formatCents(s.finalCents) });
}

/** A deferred-interest promotion: no interest if paid in full within its months (docs/money.md). */
export const isDeferredInterest = (p: PaymentPlan) => p.typeId === 'deferred_interest';

/** A lease-to-own plan is not credit: it is shown by its cost of ownership, never by an APR (docs/behaviour.md, "Plans and offers"). */
export const isLease = (p: PaymentPlan) => p.productType === 'lease';

/** A lease's cost of ownership: what its payments cost beyond the cash price (a lease's amountFinancedCents). */
export const leaseCostCents = (p: PaymentPlan) => p.totalOfPaymentsCents - p.amountFinancedCents;

/** A row of a money table: what it is, and its amount as shown (a deduction with a minus sign). */
export interface MoneyRow {
  label: string;
  value: string;
}
