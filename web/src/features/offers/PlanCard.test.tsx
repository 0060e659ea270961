import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import * as RadioGroup from '@radix-ui/react-radio-group';
import type { PaymentPlan } from '@/lib/api/types';
import { DownPaymentTable } from './DownPaymentTable';
import LearnHowDrawer from './LearnHowDrawer';
import { PlanCard, planTitle } from './PlanCard';
import { downPaymentRows, isEarlyPurchaseOption, isLease } from './plans';

const base: PaymentPlan = {
  providerKey: 'hfd_standard',
  typeId: 'fixed_installment_loan',
  providerPlanCode: 'HFD-IL-12',
  durationMonths: 12,
  monthlyAmountCents: 33334,
  totalCostCents: 450000,
  apr: 0,
  promoApr: 0,
  description: '',
  expireDateTime: '2026-12-21T00:00:00Z',
  minAmountCents: 50000,
  maxAmountCents: 500000,
  amountFinancedCents: 400000,
  downPaymentCents: 50000,
  productType: 'risa',
};
const snapLease: PaymentPlan = {
  ...base,
  providerKey: 'snap',
  providerPlanCode: 'SNP-LTO-12',
  monthlyAmountCents: 30834,
  amountFinancedCents: 200000,
  downPaymentCents: 0,
  totalCostCents: 370008,
  apr: 0,
  productType: 'lease',
};
const snapEarly: PaymentPlan = {
  ...snapLease,
  providerPlanCode: 'SNP-SAC-101',
  durationMonths: 3,
  monthlyAmountCents: 66667,
  totalCostCents: 200000,
};

const card = (plan: PaymentPlan) =>
  render(
    <RadioGroup.Root>
      <PlanCard plan={plan} financedAmountCents={450000} />
    </RadioGroup.Root>,
  );

describe('PlanCard', () => {
  it('shows a down payment as due today, deducted from the amount financed', () => {
    card(base);
    expect(screen.getByText('Due today $500.00')).toBeTruthy();
    expect(screen.getByText('Amount financed $4,000.00')).toBeTruthy();
    expect(screen.getByText('12 payments of $333.34')).toBeTruthy();
    // The total is all the patient pays: the treatment, for a 0 % plan.
    expect(screen.getByText('Total cost $4,500.00')).toBeTruthy();
  });

  it('says nothing of a down payment when there is none', () => {
    card({ ...base, downPaymentCents: 0, amountFinancedCents: 450000 });
    expect(screen.queryByText(/Due today/)).toBeNull();
    expect(screen.getByText('APR 0.00%')).toBeTruthy();
  });

  it('shows a lease as a lease: cost of ownership and early purchase option, never an APR', () => {
    card(snapLease);
    expect(screen.getByText('Lease-to-own: 12 monthly payments')).toBeTruthy();
    expect(screen.getByText('Cost of ownership $3,700.08')).toBeTruthy();
    expect(screen.getByText('12 payments of $308.34')).toBeTruthy();
    expect(screen.getByText(/Early purchase option: pay the cash price of \$2,000.00 within 101 days/)).toBeTruthy();
    expect(screen.queryByText(/APR/)).toBeNull();
    expect(screen.queryByText(/No interest/)).toBeNull();
  });

  it('shows the early purchase option as part of the lease, not as a promotion', () => {
    card({ ...snapEarly, typeId: 'deferred_interest' });
    expect(screen.getAllByText(/early purchase option/i).length).toBeGreaterThan(0);
    expect(screen.queryByText(/APR/)).toBeNull();
    expect(screen.queryByText(/No interest/)).toBeNull();
    expect(screen.queryByText(/interest is charged/)).toBeNull();
  });

  it('keeps credit plans as they were', () => {
    const di: PaymentPlan = {
      ...base,
      typeId: 'deferred_interest',
      apr: 26.99,
      downPaymentCents: 0,
      amountFinancedCents: 450000,
      productType: undefined,
    };
    expect(planTitle(di)).toBe('No interest if paid in full in 12 months');
    expect(planTitle({ ...di, typeId: 'fixed_rate' })).toBe('Fixed monthly payments for 12 months');
    expect(isLease(di)).toBe(false);
    expect(isEarlyPurchaseOption(snapEarly)).toBe(true);
    expect(isEarlyPurchaseOption(snapLease)).toBe(false);
  });
});

describe('DownPaymentTable', () => {
  it('lists treatment, requested credit limit and remaining obligation', () => {
    render(<DownPaymentTable treatmentCents={450000} insuranceCents={0} downPaymentCents={50000} />);
    const rows = screen.getAllByRole('row').map((r) => r.textContent);
    expect(rows).toEqual([
      'Treatment total after discounts$4,500.00',
      'Credit limit requested$2,000.00',
      'Remaining patient obligation$2,500.00',
      'Down payment due today$500.00',
    ]);
  });

  it('takes half of purchase plus insurance, rounded down, and never goes below zero', () => {
    expect(downPaymentRows(100001, 500).map((r) => r.cents)).toEqual([100001, 50250, 49751]);
    expect(downPaymentRows(100000, 200000).map((r) => r.cents)).toEqual([100000, 150000, 0]);
  });
});

describe('LearnHowDrawer', () => {
  it('explains a lease by its cost of ownership and early purchase option', () => {
    render(<LearnHowDrawer plan={snapLease} onClose={() => undefined} />);
    expect(screen.getByText('Lease-to-own for 12 months')).toBeTruthy();
    expect(screen.getByText('$3,700.08')).toBeTruthy();
    expect(screen.getByText(/within 101 days/)).toBeTruthy();
    expect(screen.queryByText(/APR/)).toBeNull();
  });
});
