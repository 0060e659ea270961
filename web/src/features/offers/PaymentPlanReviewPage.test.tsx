import { beforeEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { PaymentPlan } from '@/lib/api/types';
import { flow } from '@/stores/flow';
import { lender, withCatalogue } from '@/test/catalogue';
import { deferredPlan, fixedRatePlan, leasePlan } from '@/test/fixtures';
import { PaymentPlanReviewPage } from './PaymentPlanReviewPage';

/*
 * The review screen states the chosen plan's money as the plan states it
 * (docs/behaviour.md, "Plans and offers"): the payments by their count and
 * final payment, the finance charge, the totals, never a figure worked out
 * here from another.
 */

function review(plan: PaymentPlan, pricedCents = 450_000) {
  flow.set({ providerKey: plan.providerKey, selectedPaymentPlan: plan, purchaseAmountCents: 450_000 });
  flow.response(plan.providerKey, { paymentPlans: [plan], paymentPlansAmountCents: pricedCents });
  const router = createMemoryRouter([{ path: '/providers/:providerKey/paymentPlanReview', Component: PaymentPlanReviewPage }], {
    initialEntries: [`/providers/${plan.providerKey}/paymentPlanReview`],
  });
  render(<RouterProvider router={router} />);
}

/** figures: the review's terms and their values, as the patient reads them. */
const figures = () =>
  Object.fromEntries(Array.from(document.querySelectorAll('.review dt')).map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]));

beforeEach(() => {
  flow.reset();
  withCatalogue([
    lender('synchrony_standard', 'Synchrony'),
    lender('hfd_standard', 'HFD'),
    lender('snap_standard', 'Snap', { kind: 'lease_to_own' }),
  ]);
});

describe('the review screen', () => {
  it('says the payments by their count and final payment, and totals that are the plan’s', () => {
    // The tester's card: before, "Number of payments 24" beside $225.00 and a total of $5,383.98.
    review(fixedRatePlan('synchrony_standard', { monthlyAmountCents: 22_500, finalPaymentCents: 20_898 }));
    expect(figures()).toEqual({
      'Monthly payment': '$225.00',
      'Amount financed': '$4,500.00',
      Payments: '23 payments of $225.00 and a final payment of $208.98',
      APR: '17.90%',
      'Finance charge': '$883.98',
      'Total of payments': '$5,383.98',
      'Total cost': '$5,383.98',
    });
  });

  it('a down payment: due today, named in the total, and the table with the lender’s sizing apart', () => {
    review(
      fixedRatePlan('hfd_standard', {
        typeId: 'fixed_installment_loan',
        durationMonths: 12,
        monthlyAmountCents: 33_333,
        finalPaymentCents: 33_337,
        apr: 0,
        amountFinancedCents: 400_000,
        downPaymentCents: 50_000,
      }),
    );
    expect(figures()).toMatchObject({
      'Due today': '$500.00',
      'Amount financed': '$4,000.00',
      'Finance charge': '$0.00',
      'Total of payments': '$4,000.00',
      'Total you pay, with the $500.00 down payment': '$4,500.00',
    });
    expect(screen.getByRole('table', { name: 'Down payment' }).textContent).toContain('Amount financed$4,000.00');
    expect(screen.getByRole('heading', { name: 'How the lender sized this offer' })).toBeTruthy();
    expect(screen.queryByText(/Remaining patient obligation/)).toBeNull();
  });

  it('works the deferred-interest warning with the plan’s own amount financed and suggested payment, not the amount asked', () => {
    // Asked for $4,500 with $500 down: the plan finances $4,000. Before, the warning said $4,500 and $375.00.
    review(
      deferredPlan('synchrony_standard', {
        amountFinancedCents: 400_000,
        downPaymentCents: 50_000,
        monthlyAmountCents: 33_333,
        finalPaymentCents: 33_337,
      }),
    );
    expect(
      screen.getByText(
        'If $4,000.00 is not paid in full within 12 months, interest at 26.99% APR is charged from the purchase date on the whole amount. Paying the suggested $333.33 a month pays it off in time.',
      ),
    ).toBeTruthy();
    expect(figures()).toMatchObject({
      'Suggested monthly payment': '$333.33',
      'Suggested payments': '11 payments of $333.33 and a final payment of $333.37',
      'APR if not paid in full within 12 months': '26.99%',
    });
  });

  it('a lease: the cash price, never “Amount financed”, an APR or a finance charge', () => {
    review(leasePlan('snap_standard', { downPaymentCents: 10_000, totalCostCents: 380_008 }), 200_000);
    expect(figures()).toEqual({
      'Monthly payment': '$308.34',
      'Initial payment due today': '$100.00',
      'Cash price': '$2,000.00',
      Payments: '12 payments of $308.34',
      'Total of payments': '$3,700.08',
      'Cost of ownership, beyond the cash price': '$1,700.08',
      'Total you pay, with the $100.00 initial payment': '$3,800.08',
    });
    expect(screen.queryByText(/financed|APR|Finance charge|loan/i)).toBeNull();
  });
});
