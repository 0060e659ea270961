import { describe, expect, it } from 'vitest';
import type { PaymentPlan } from '@/lib/api/types';
import { provider } from '@/test/catalogue';
import { fixedRatePlan } from '@/test/fixtures';
import {
  filterByType,
  financeChargeCents,
  groupPlans,
  isEligible,
  planTypesShown,
  productFamily,
  subLenderOf,
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
  it('checks eligibility of the amount the plan finances against its min, its max and the approval', () => {
    expect(isEligible(plan(1, { minAmountCents: 100000, amountFinancedCents: 50000 }), 500000)).toBe(false);
    expect(isEligible(plan(1, { amountFinancedCents: 600000 }), 900000)).toBe(false); // above the plan's maximum
    expect(isEligible(plan(1, { maxAmountCents: 0, amountFinancedCents: 600000 }), 500000)).toBe(false); // above the approval
    expect(isEligible(plan(1), 450000)).toBe(true);
    expect(isEligible(plan(1))).toBe(true);
    // HFD: $1,050 with $105 down finances $945, below a $1,000 minimum, though the amount asked is above it.
    expect(isEligible(plan(1, { minAmountCents: 100000, amountFinancedCents: 94500, downPaymentCents: 10500 }), 105000)).toBe(false);
    // A down payment that covers everything leaves nothing to finance.
    expect(isEligible(plan(1, { amountFinancedCents: 0, downPaymentCents: 30000 }), 500000)).toBe(false);
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

describe('the catalogue’s plan settings', () => {
  const syn = provider('synchrony_standard', 'Synchrony', { paymentPlanFilterOverrides: { credit_card: ['deferred_interest', 'fixed_rate'] } });
  const pro = provider('proceed_standard', 'Proceed', {
    kind: 'installment_loan',
    subLenders: [{ providerId: 'harbor', name: 'Harbor Community Bank', logo: '/logos/harbor.svg' }],
  });
  const providers = { [syn.providerKey]: syn, [pro.providerKey]: pro };

  it('a filter override is keyed by the product family of the lender’s kind', () => {
    expect(['promotional_card', 'revolving', 'installment_loan', 'lease_to_own', undefined].map(productFamily)).toEqual([
      'credit_card',
      'credit_card',
      'loan',
      'lease',
      'loan',
    ]);
    expect(planTypesShown(syn)).toEqual(['deferred_interest', 'fixed_rate']);
    expect(planTypesShown({ ...syn, kind: 'installment_loan' })).toBeUndefined();
    expect(planTypesShown(pro)).toBeUndefined();
  });

  it('filterByType drops only the types a lender’s override leaves out', () => {
    const plans = [
      fixedRatePlan('synchrony_standard', { providerPlanCode: 'A' }),
      fixedRatePlan('synchrony_standard', { providerPlanCode: 'B', typeId: 'fixed_installment_loan' }),
      fixedRatePlan('proceed_standard', { providerPlanCode: 'C', typeId: 'fixed_installment_loan' }),
    ];
    expect(filterByType(plans, providers).map((p) => p.providerPlanCode)).toEqual(['A', 'C']);
  });

  it('a partner lender is the plan’s own, else the offer’s, and never the lender itself', () => {
    const own = fixedRatePlan('proceed_standard', { providerPlanCode: 'P' });
    const harbor = fixedRatePlan('proceed_standard', { providerPlanCode: 'H', subLenderId: 'harbor' });
    expect(subLenderOf(harbor, pro)?.name).toBe('Harbor Community Bank');
    expect(subLenderOf(own, pro)).toBeUndefined();
    expect(subLenderOf(own, pro, 'harbor')?.providerId).toBe('harbor');
    expect(subLenderOf(own, pro, 'proceed')).toBeUndefined();
    expect(subLenderOf(own, pro, 'nobody')).toBeUndefined();
    expect(subLenderOf(harbor, syn)).toBeUndefined();
  });

  it('groupPlans keeps each lender’s and each partner’s plans together, in the order they came', () => {
    const plans = [
      fixedRatePlan('proceed_standard', { providerPlanCode: 'P1' }),
      fixedRatePlan('proceed_standard', { providerPlanCode: 'H1', subLenderId: 'harbor' }),
      fixedRatePlan('synchrony_standard', { providerPlanCode: 'S1' }),
      fixedRatePlan('proceed_standard', { providerPlanCode: 'P2' }),
    ];
    expect(groupPlans(plans, providers).map((g) => [g.id, g.plans.map((p) => p.providerPlanCode)])).toEqual([
      ['proceed_standard|', ['P1', 'P2']],
      ['proceed_standard|harbor', ['H1']],
      ['synchrony_standard|', ['S1']],
    ]);
  });

  it('the finance charge is what a plan costs beyond the amount financed and the down payment', () => {
    expect(financeChargeCents(fixedRatePlan('a', { totalCostCents: 590_000, downPaymentCents: 50_000, amountFinancedCents: 400_000 }))).toBe(140_000);
    expect(financeChargeCents(fixedRatePlan('a', { totalCostCents: 450_000, amountFinancedCents: 450_000 }))).toBe(0);
  });
});
