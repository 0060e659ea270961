import { describe, expect, it } from 'vitest';
import type { PaymentPlan } from '@/lib/api/types';
import { lender } from '@/test/catalogue';
import { deferredPlan, fixedRatePlan, leasePlan } from '@/test/fixtures';
import {
  downPaymentRows,
  estimateFloorCents,
  filterByType,
  groupPlans,
  isEligible,
  planTypesShown,
  productFamily,
  tooSmallFor,
  subLenderOf,
  learnHowEstimate,
  learnHowMultiplier,
  leaseCostCents,
  lenderSizingRows,
  remainingObligationCents,
  requestedCreditLimitCents,
  suggestedPlan,
} from './plans';

const plan = (monthly: number, over: Partial<PaymentPlan> = {}): PaymentPlan =>
  deferredPlan('p', { providerPlanCode: `c${monthly}`, monthlyAmountCents: monthly, minAmountCents: 0, maxAmountCents: 500000, ...over });

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
  const syn = lender('synchrony_standard', 'Synchrony', { paymentPlanFilterOverrides: { credit_card: ['deferred_interest', 'fixed_rate'] } });
  const pro = lender('proceed_standard', 'Proceed', {
    kind: 'installment_loan',
    subLenders: [{ providerId: 'harbor', name: 'Harbor Community Bank', logo: '/logos/harbor.svg' }],
  });
  const lenders = { [syn.providerKey]: syn, [pro.providerKey]: pro };

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
    expect(filterByType(plans, lenders).map((p) => p.providerPlanCode)).toEqual(['A', 'C']);
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
    expect(groupPlans(plans, lenders).map((g) => [g.id, g.plans.map((p) => p.providerPlanCode)])).toEqual([
      ['proceed_standard|', ['P1', 'P2']],
      ['proceed_standard|harbor', ['H1']],
      ['synchrony_standard|', ['S1']],
    ]);
  });
});

describe('money the plan states, never the browser (issue 27)', () => {
  it('quotes the learn-how multiplier only when it agrees with the plan’s payment within a dollar', () => {
    // $4,500 at 17.90 % over 24 months is $224.44 a month: 4.9876 % of $4,500 is $224.44.
    expect(learnHowEstimate(fixedRatePlan('a'))).toBe(4.9876);
    // The same term at 26.99 % is $244.69 a month: 4.9876 % of the amount would contradict the card.
    expect(learnHowEstimate(fixedRatePlan('a', { apr: 26.99, monthlyAmountCents: 24_469 }))).toBeUndefined();
    expect(learnHowEstimate(fixedRatePlan('a', { monthlyAmountCents: 22_545 }))).toBeUndefined(); // $1.01 away
    expect(learnHowEstimate(deferredPlan('a'))).toBeUndefined(); // no multiplier for 12 months
  });

  it('a lease costs what its payments come to beyond the cash price', () => {
    expect(leaseCostCents(leasePlan('snap_standard'))).toBe(170_008);
    expect(leaseCostCents(leasePlan('snap_standard', { durationMonths: 3, monthlyAmountCents: 66_667, finalPaymentCents: 66_666 }))).toBe(0);
  });

  it('the estimator stops at the lowest amount a plan offered is for, the lender’s calculator minimum, or a dollar', () => {
    const plans = [fixedRatePlan('a', { minAmountCents: 50_000 }), fixedRatePlan('a', { minAmountCents: 30_000 })];
    expect(estimateFloorCents(plans)).toBe(30_000);
    expect(estimateFloorCents(plans, 50_000)).toBe(50_000);
    expect(estimateFloorCents([fixedRatePlan('a', { minAmountCents: 0 })])).toBe(100);
    expect(estimateFloorCents([])).toBe(100);
  });
});

describe('the down-payment table', () => {
  // HFD, $4,500 with $500 down: $4,000 financed, twelve payments at 0 %.
  const hfd = fixedRatePlan('hfd_standard', {
    typeId: 'fixed_installment_loan',
    durationMonths: 12,
    monthlyAmountCents: 33_333,
    finalPaymentCents: 33_337,
    apr: 0,
    amountFinancedCents: 400_000,
    downPaymentCents: 50_000,
  });
  const table = (rows: { label: string; value: string }[]) => rows.map((r) => `${r.label}: ${r.value}`);

  it('goes from the treatment to the plan’s own amount financed, then its payments and all the patient pays', () => {
    expect(table(downPaymentRows(hfd, 450_000, 0, true))).toEqual([
      'Treatment total after discounts: $4,500.00',
      'Down payment due today: \u2212$500.00',
      'Amount financed: $4,000.00',
      'Payments: 11 payments of $333.33 and a final payment of $333.37',
      'Total you pay, with the down payment, over 12 months: $4,500.00',
    ]);
  });

  it('takes off the insurance when that is what the plan leaves out, and anything else as not in this plan', () => {
    const plan = { ...hfd, amountFinancedCents: 300_000, totalOfPaymentsCents: 300_000, totalCostCents: 350_000 };
    expect(table(downPaymentRows(plan, 450_000, 100_000)).slice(0, 2)).toEqual([
      'Treatment total after discounts: $4,500.00',
      'Insurance benefits (expected): \u2212$1,000.00',
    ]);
    expect(table(downPaymentRows(plan, 450_000)).slice(0, 2)).toEqual([
      'Treatment total after discounts: $4,500.00',
      'Not in this plan (you chose to finance less): \u2212$1,000.00',
    ]);
  });

  it('starts from the amount asked for when the treatment is unknown or less than the plan covers', () => {
    expect(table(downPaymentRows(hfd, 0))[0]).toBe('Amount you asked to finance: $4,500.00');
    expect(table(downPaymentRows(hfd, 300_000))[0]).toBe('Amount you asked to finance: $4,500.00');
  });

  it('keeps the lender’s sizing figures apart, worded as a rule and not as a debt', () => {
    expect(table(lenderSizingRows(450_000))).toEqual([
      'Lender’s credit limit rule: up to: $2,000.00',
      'Part of the treatment above that limit: $2,500.00',
    ]);
    expect(lenderSizingRows(100_001, 500).map((r) => r.value)).toEqual(['$502.50', '$497.51']);
  });
});

describe('tooSmallFor: nothing can be chosen because the amount is under every plan’s minimum', () => {
  const lc = (code: string, financed: number, min: number) =>
    fixedRatePlan('lendingclub_standard', { providerPlanCode: code, amountFinancedCents: financed, minAmountCents: min });

  it('names the amount priced and the least any plan finances', () => {
    // $600 at LendingClub, whose loans start at $1,000 (and one at $2,000).
    expect(tooSmallFor([lc('A', 60_000, 100_000), lc('B', 60_000, 200_000)], {})).toEqual({ amountCents: 60_000, leastCents: 100_000 });
  });

  it('says nothing when a plan can be chosen, or when the reason is another (over the approval)', () => {
    expect(tooSmallFor([lc('A', 60_000, 100_000), lc('B', 60_000, 50_000)], {})).toBeUndefined();
    expect(tooSmallFor([lc('A', 600_000, 100_000)], { lendingclub_standard: 500_000 })).toBeUndefined();
    expect(tooSmallFor([], {})).toBeUndefined();
  });
});
