import type { PaymentPlan } from '@/lib/api/types';

/** The suggested plan is the one with the highest monthly amount (docs/behaviour.md, "Plans and offers"). */
export function suggestedPlan(plans: PaymentPlan[]): PaymentPlan | undefined {
  return plans.reduce<PaymentPlan | undefined>((best, p) => (!best || p.monthlyAmountCents > best.monthlyAmountCents ? p : best), undefined);
}

export const isFixedRate = (p: PaymentPlan) => p.typeId === 'fixed_rate';
export const isDeferredInterest = (p: PaymentPlan) => p.typeId === 'deferred_interest';

/** A plan is eligible when the requested amount is between its minimum (default 0) and maximum. */
export function isEligible(p: PaymentPlan, requestedCents: number, approvedCents?: number): boolean {
  const min = p.minAmountCents ?? 0;
  const max = p.maxAmountCents ?? approvedCents ?? Number.POSITIVE_INFINITY;
  return requestedCents >= min && requestedCents <= max;
}

/** Learn-how multiplier by duration (docs/behaviour.md, "Plans and offers"). */
export function learnHowMultiplier(months: number): number | undefined {
  return ({ 24: 4.9876, 36: 3.6605, 48: 3.0377, 60: 2.6997 } as Record<number, number>)[months];
}

/** Suggested deferred-interest payment: the greater of amount / months or $30 (in cents). */
export function suggestedDeferredPaymentCents(amountCents: number, months: number): number {
  if (months <= 0) return amountCents;
  return Math.max(Math.ceil(amountCents / months), 3000);
}

/** Requested credit limit for the down-payment table (docs/behaviour.md, "Plans and offers"). */
export function requestedCreditLimitCents(purchaseCents: number, insuranceCents = 0): number {
  return Math.min(200000, Math.floor((purchaseCents + insuranceCents) / 2));
}

export function remainingObligationCents(purchaseCents: number, limitCents: number): number {
  return Math.max(0, purchaseCents - limitCents);
}

/** A lease-to-own plan is not credit: it is shown by its cost of ownership, never by an APR (docs/behaviour.md, "Plans and offers"). */
export const isLease = (p: PaymentPlan) => p.productType === 'lease';

/** Days within which a lease's early purchase option lets the patient buy for the cash price (Snap's 101-day option). */
export const EARLY_PURCHASE_DAYS = 101;

/** The lease plan that is the early purchase option: its payments add up to the cash price. */
export const isEarlyPurchaseOption = (p: PaymentPlan) => isLease(p) && p.totalCostCents - p.downPaymentCents <= p.amountFinancedCents;

/** What the plan finances: the treatment less the down payment, as the lender stated it. */
export const amountFinancedCents = (p: PaymentPlan) => p.amountFinancedCents;

/** Paid today, before the first monthly payment. */
export const dueTodayCents = (p: PaymentPlan) => p.downPaymentCents;

/** The down-payment table of a plan with a down payment (docs/behaviour.md, "Plans and offers"). */
export function downPaymentRows(treatmentCents: number, insuranceCents = 0): { label: string; cents: number }[] {
  const limit = requestedCreditLimitCents(treatmentCents, insuranceCents);
  return [
    { label: 'Treatment total after discounts', cents: treatmentCents },
    { label: 'Credit limit requested', cents: limit },
    { label: 'Remaining patient obligation', cents: remainingObligationCents(treatmentCents, limit) },
  ];
}
