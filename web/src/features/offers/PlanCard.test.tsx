import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import * as RadioGroup from '@radix-ui/react-radio-group';
import type { PaymentPlan } from '@/lib/api/types';
import { deferredPlan, fixedRatePlan, leasePlan } from '@/test/fixtures';
import { DownPaymentTable } from './DownPaymentTable';
import LearnHowDrawer from './LearnHowDrawer';
import { PlanCard, planTitle } from './PlanCard';
import { isEarlyPurchaseOption, isLease } from './plans';

/*
 * Every figure on a card, in the table and in the drawer is one the plan
 * states (api/openapi.yaml, PaymentPlan): the payments from its count and
 * final payment, the totals from its totals (docs/behaviour.md, "Plans and
 * offers"). The fixtures add up (test/fixtures.ts).
 */

/** HFD, $4,500 with $500 down: $4,000 financed at 0 %, eleven payments of $333.33 and a final one of $333.37. */
const hfd = fixedRatePlan('hfd_standard', {
  typeId: 'fixed_installment_loan',
  providerPlanCode: 'HFD-IL-12',
  durationMonths: 12,
  monthlyAmountCents: 33_333,
  finalPaymentCents: 33_337,
  apr: 0,
  amountFinancedCents: 400_000,
  downPaymentCents: 50_000,
  productType: 'risa',
});
const snapLease = leasePlan('snap_standard');
const snapEarly = leasePlan('snap_standard', {
  providerPlanCode: 'SNP-SAC-101',
  durationMonths: 3,
  monthlyAmountCents: 66_667,
  finalPaymentCents: 66_666,
});

const card = (plan: PaymentPlan) =>
  render(
    <RadioGroup.Root>
      <PlanCard plan={plan} />
    </RadioGroup.Root>,
  );

describe('PlanCard', () => {
  it('shows a down payment as due today, deducted from the amount financed, and names it in the total', () => {
    card(hfd);
    expect(screen.getByText('Due today $500.00')).toBeTruthy();
    expect(screen.getByText('Amount financed $4,000.00')).toBeTruthy();
    expect(screen.getByText('11 payments of $333.33 and a final payment of $333.37')).toBeTruthy();
    // The total is all the patient pays: the treatment, for a 0 % plan.
    expect(screen.getByText('Total you pay, with the $500.00 down payment: $4,500.00')).toBeTruthy();
  });

  it('says nothing of a down payment when there is none', () => {
    card({ ...hfd, downPaymentCents: 0, totalCostCents: 400_000 });
    expect(screen.queryByText(/Due today/)).toBeNull();
    expect(screen.getByText('APR 0.00%')).toBeTruthy();
    expect(screen.getByText('Total cost $4,000.00')).toBeTruthy();
  });

  it('the tester’s fixed-rate card: the payments add up to the total it shows', () => {
    // Before, "24 payments of $225.00" beside "Total cost $5,383.98", which 24 × $225.00 is not.
    card(fixedRatePlan('synchrony_standard', { monthlyAmountCents: 22_500, finalPaymentCents: 20_898 }));
    expect(screen.getByText('23 payments of $225.00 and a final payment of $208.98')).toBeTruthy();
    expect(screen.getByText('Total cost $5,383.98')).toBeTruthy();
    expect(screen.queryByText(/24 payments/)).toBeNull();
  });

  it('equal payments are said once, from the plan’s own count', () => {
    card(fixedRatePlan('synchrony_standard', { monthlyAmountCents: 18_750, apr: 0 }));
    expect(screen.getByText('24 payments of $187.50')).toBeTruthy();
    expect(screen.getByText('Total cost $4,500.00')).toBeTruthy();
  });

  it('the tester’s $100 promotion: the suggested payments pay off $100 and no more', () => {
    // Before, "6 payments of $30.00" beside "Total cost $100.00".
    card(
      deferredPlan('synchrony_standard', {
        durationMonths: 6,
        paymentCount: 4,
        monthlyAmountCents: 3_000,
        finalPaymentCents: 1_000,
        amountFinancedCents: 10_000,
      }),
    );
    expect(screen.getByText('No interest if paid in full within 6 months')).toBeTruthy();
    expect(screen.getByText('Suggested: 3 payments of $30.00 and a final payment of $10.00')).toBeTruthy();
    expect(screen.getByText('Total cost $100.00')).toBeTruthy();
    expect(
      screen.getByText(
        'If $100.00 is not paid in full within 6 months, interest at 26.99% APR is charged from the purchase date on the whole amount. Paying the suggested $30.00 a month pays it off in 4 payments.',
      ),
    ).toBeTruthy();
    expect(screen.queryByText(/6 payments/)).toBeNull();
  });

  it('a promotion’s example is worked with the plan’s own amount financed and suggested payment', () => {
    card(deferredPlan('synchrony_standard', { amountFinancedCents: 400_000, monthlyAmountCents: 33_333, finalPaymentCents: 33_337 }));
    expect(
      screen.getByText(/^If \$4,000\.00 is not paid in full within 12 months.*Paying the suggested \$333\.33 a month pays it off in time\.$/),
    ).toBeTruthy();
  });

  it('shows a lease as a lease: cash price, payments, their total and cost beyond the cash price; never financed, an APR or a loan', () => {
    card(snapLease);
    expect(screen.getByText('Lease-to-own: 12 monthly payments')).toBeTruthy();
    expect(screen.getByText('Cash price $2,000.00')).toBeTruthy();
    expect(screen.getByText('12 payments of $308.34')).toBeTruthy();
    expect(screen.getByText('Total of payments $3,700.08')).toBeTruthy();
    expect(screen.getByText('Cost of ownership $1,700.08 beyond the cash price')).toBeTruthy();
    expect(screen.getByText(/Early purchase option: pay the cash price of \$2,000.00 within 101 days/)).toBeTruthy();
    expect(screen.queryByText(/APR|No interest|financed|loan/i)).toBeNull();
  });

  it('a lease with an initial payment says it is due today, and still never “Amount financed”', () => {
    card({ ...snapLease, downPaymentCents: 10_000, totalCostCents: 380_008 });
    expect(screen.getByText('Initial payment due today $100.00')).toBeTruthy();
    expect(screen.getByText('Cash price $2,000.00')).toBeTruthy();
    expect(screen.getByText('Total you pay, with the $100.00 initial payment: $3,800.08')).toBeTruthy();
    expect(screen.queryByText(/financed|loan/i)).toBeNull();
  });

  it('shows the early purchase option as part of the lease, not as a promotion', () => {
    card({ ...snapEarly, typeId: 'deferred_interest' });
    expect(screen.getAllByText(/early purchase option/i).length).toBeGreaterThan(0);
    expect(screen.getByText('2 payments of $666.67 and a final payment of $666.66')).toBeTruthy();
    expect(screen.queryByText(/APR/)).toBeNull();
    expect(screen.queryByText(/No interest/)).toBeNull();
    expect(screen.queryByText(/interest is charged/)).toBeNull();
  });

  it('keeps credit plans as they were', () => {
    const di = deferredPlan('synchrony_standard');
    expect(planTitle(di)).toBe('No interest if paid in full within 12 months');
    expect(planTitle({ ...di, typeId: 'fixed_rate' })).toBe('Fixed monthly payments for 12 months');
    expect(isLease(di)).toBe(false);
    expect(isEarlyPurchaseOption(snapEarly)).toBe(true);
    expect(isEarlyPurchaseOption(snapLease)).toBe(false);
  });
});

describe('DownPaymentTable', () => {
  it('goes from the treatment to the plan’s amount financed, then its payments and total, in that order', () => {
    render(<DownPaymentTable plan={hfd} treatmentCents={450_000} schedule />);
    const rows = within(screen.getByRole('table', { name: 'Down payment' }))
      .getAllByRole('row')
      .map((r) => r.textContent);
    expect(rows).toEqual([
      'Treatment total after discounts$4,500.00',
      'Down payment due today\u2212$500.00',
      'Amount financed$4,000.00',
      'Payments11 payments of $333.33 and a final payment of $333.37',
      'Total you pay, with the down payment, over 12 months$4,500.00',
    ]);
  });

  it('shows the lender’s sizing apart, under its own heading, as no amount owed', () => {
    // Before, "Remaining patient obligation $2,500.00" sat beside "$500.00 due today" as a second debt.
    render(<DownPaymentTable plan={hfd} treatmentCents={450_000} />);
    expect(screen.queryByText(/Remaining patient obligation|Credit limit requested/)).toBeNull();
    expect(screen.getByRole('heading', { name: 'How the lender sized this offer' })).toBeTruthy();
    expect(screen.getByText(/They are not another amount you owe/)).toBeTruthy();
    const sizing = screen.getByRole('table', { name: 'How the lender sized this offer' });
    expect(
      within(sizing)
        .getAllByRole('row')
        .map((r) => r.textContent),
    ).toEqual(['Lender’s credit limit rule: up to$2,000.00', 'Part of the treatment above that limit$2,500.00']);
  });
});

describe('LearnHowDrawer', () => {
  const boxes = () => Array.from(document.querySelectorAll('.boxes .notice')).map((b) => b.textContent);

  it('explains a lease by its cash price, payments, their total and the early purchase option', () => {
    render(<LearnHowDrawer plan={snapLease} onClose={() => undefined} />);
    expect(screen.getByText('Lease-to-own for 12 months')).toBeTruthy();
    expect(boxes()).toEqual([
      'Cash Price$2,000.00',
      'Lease Payments12 payments of $308.34',
      'Total of Payments$3,700.08',
      'Cost of Ownership (Beyond the Cash Price)$1,700.08',
    ]);
    expect(screen.getByText(/After 101 days you make every lease payment: \$3,700\.08 in all, \$1,700\.08 more than the cash price\./)).toBeTruthy();
    expect(screen.queryByText(/APR|financed|loan/i)).toBeNull();
  });

  it('every figure of a credit plan is the plan’s, and the multiplier is an estimate that agrees with it', () => {
    render(<LearnHowDrawer plan={fixedRatePlan('synchrony_standard')} onClose={() => undefined} />);
    expect(boxes()).toEqual([
      'Amount Financed$4,500.00',
      'Required Payments23 payments of $224.44 and a final payment of $224.47',
      'Total of Payments$5,386.59',
      'Payoff Period24 months',
    ]);
    expect(screen.getByText(/As an estimate, you pay about 4\.99% of the amount financed each month\./)).toBeTruthy();
  });

  it('leaves the multiplier out when it would contradict the card', () => {
    // 4.9876 % of $4,500 is $224.44; this plan's payment is $244.69.
    render(<LearnHowDrawer plan={fixedRatePlan('synchrony_standard', { apr: 26.99, monthlyAmountCents: 24_469 })} onClose={() => undefined} />);
    expect(screen.queryByText(/estimate|4\.99/)).toBeNull();
  });

  it('a promotion’s suggested payments and amount come from the plan, with the down payment and total when there is one', () => {
    render(<LearnHowDrawer plan={deferredPlan('a', { downPaymentCents: 50_000, totalCostCents: 500_000 })} onClose={() => undefined} />);
    expect(boxes()).toEqual([
      'Due Today$500.00',
      'Amount Financed$4,500.00',
      'Suggested Payments12 payments of $375.00',
      'Total of Payments$4,500.00',
      'Total You Pay, With the Down Payment$5,000.00',
      'Promotional Period12 months',
    ]);
  });
});
