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
