import { describe, expect, it } from 'vitest';
import type { PaymentPlan } from '@/lib/api/types';
import {
  isEligible,
  learnHowMultiplier,
  remainingObligationCents,
  requestedCreditLimitCents,
  suggestedDeferredPaymentCents,
  suggestedPlan,
} from './plans';

const plan = (monthly: number, over: Partial<PaymentPlan> = {}): PaymentPlan => ({
  providerKey: 'p',
  typeId: 'deferred_interest',
  providerPlanCode: `c${monthly}`,
  durationMonths: 12,
  monthlyAmountCents: monthly,
  totalCostCents: 450000,
  apr: 26.99,
  promoApr: 0,
  description: '',
  expireDateTime: '2026-12-21T00:00:00Z',
  minAmountCents: 0,
  maxAmountCents: 500000,
  amountFinancedCents: 450000,
  downPaymentCents: 0,
  ...over,
});

describe('plans', () => {
  it('suggests the plan with the highest monthly amount', () => {
    expect(suggestedPlan([plan(100), plan(300), plan(200)])?.monthlyAmountCents).toBe(300);
  });
  it('checks eligibility against min and max', () => {
    expect(isEligible(plan(1, { minAmountCents: 100000 }), 50000)).toBe(false);
    expect(isEligible(plan(1), 600000)).toBe(false);
    expect(isEligible(plan(1), 450000)).toBe(true);
  });
  it('suggests deferred payments of at least $30', () => {
    expect(suggestedDeferredPaymentCents(450000, 12)).toBe(37500);
    expect(suggestedDeferredPaymentCents(10000, 12)).toBe(3000);
  });
  it('computes the down-payment table', () => {
    expect(requestedCreditLimitCents(300000, 100000)).toBe(200000);
    expect(requestedCreditLimitCents(100000)).toBe(50000);
    expect(remainingObligationCents(100000, 200000)).toBe(0);
  });
  it('knows the learn-how multipliers', () => {
    expect(learnHowMultiplier(24)).toBe(4.9876);
    expect(learnHowMultiplier(12)).toBeUndefined();
  });
});
