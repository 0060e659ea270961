import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { PaymentPlan } from '@/lib/api/types';
import { setLanguage } from '@/lib/i18n';
import { flow } from '@/stores/flow';
import { lender, withCatalogue } from '@/test/catalogue';
import { decision, fixedRatePlan, leasePlan } from '@/test/fixtures';
import { PaymentPlansPage } from './PaymentPlansPage';
import { fullLeaseOf, isSameAsCash } from './SameAsCashNotice';

/*
 * The same-as-cash notice (docs/behaviour.md, "Plans and offers"): choosing
 * Snap's early purchase option goes on only once the patient has read what
 * it costs within 101 days and what the lease costs after, in the plans'
 * own figures.
 */

const post = vi.hoisted(() => vi.fn());
vi.mock('@/lib/api/client', async (actual) => {
  const real = await actual<typeof import('@/lib/api/client')>();
  return { ...real, api: { ...real.api, post } };
});

const SNAP = lender('snap_standard', 'Snap', { kind: 'lease_to_own', creditType: 'loan', fetchPaymentPlansOnPreAuth: false });
/** The lease: twelve payments of $308.34 for a $2,000.00 cash price, $3,700.08 in all. */
const lease = leasePlan('snap_standard');
/** The early purchase option: the cash price in three payments. */
const early = leasePlan('snap_standard', {
  providerPlanCode: 'SNP-SAC-101',
  durationMonths: 3,
  monthlyAmountCents: 66_667,
  finalPaymentCents: 66_666,
});

function show() {
  flow.set({ providerKey: 'snap_standard' });
  flow.response('snap_standard', {
    preAuth: { ...decision('snap_standard', 'prequalified', { approvedAmountCents: 500_000 }), operation: 'prequalify' },
    paymentPlans: [early, lease],
    paymentPlansAmountCents: 200_000,
  });
  const router = createMemoryRouter(
    [
      { path: '/providers/:providerKey/paymentPlans', Component: PaymentPlansPage },
      { path: '/providers/:providerKey/paymentPlanReview', Component: () => <h1>Review</h1> },
    ],
    { initialEntries: ['/providers/snap_standard/paymentPlans'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

const choose = (code: string) => userEvent.click(screen.getAllByRole('radio').find((r) => r.id.endsWith(`-${code}`))!);
const notice = () => screen.queryByRole('dialog', { name: 'Before you choose the early purchase option' });

beforeEach(() => {
  post.mockReset();
  post.mockResolvedValue({});
  flow.reset();
  withCatalogue([SNAP]);
});

describe('the same-as-cash notice', () => {
  it('knows the early purchase option and the lease that applies after it', () => {
    expect(isSameAsCash(early)).toBe(true);
    expect(isSameAsCash(lease)).toBe(false);
    // A credit plan's words do not make it a lease's option: the lease notice would be wrong for it.
    expect(isSameAsCash(fixedRatePlan('x', { description: 'Same-as-cash for 6 months' }))).toBe(false);
    expect(fullLeaseOf(early, [early, lease])).toBe(lease);
    // Another cash price is another lease: no figures rather than wrong ones.
    expect(fullLeaseOf(early, [early, { ...lease, amountFinancedCents: 300_000 } as PaymentPlan])).toBeUndefined();
  });

  it('stops the early purchase option until it is acknowledged, with the plans’ own figures', async () => {
    const router = show();
    await choose('SNP-SAC-101');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    const dialog = notice()!;
    expect(dialog).toBeTruthy();
    expect(dialog.textContent).toContain('This is a lease, not a loan. The cash price of your treatment is $2,000.00.');
    expect(dialog.textContent).toContain(
      'If you pay the $2,000.00 in full within 101 days, that is all you pay: 2 payments of $666.67 and a final payment of $666.66.',
    );
    expect(dialog.textContent).toContain(
      'If it is not paid in full within 101 days, the early purchase price no longer applies and you pay the lease’s full cost: $3,700.08 in all (12 payments of $308.34), $1,700.08 more than the cash price.',
    );
    expect(post).not.toHaveBeenCalled();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Choose another plan' }));
    expect(notice()).toBeNull();
    expect(router.state.location.pathname).toBe('/providers/snap_standard/paymentPlans');
    expect(post).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await userEvent.click(within(notice()!).getByRole('button', { name: 'I understand, continue' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/providers/snap_standard/paymentPlanReview'));
    expect(post).toHaveBeenCalledWith(expect.stringMatching(/payment\/plans\/SNP-SAC-101\/select$/), {});
  });

  it('is not shown for the lease itself', async () => {
    const router = show();
    await choose('SNP-LTO-12');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(notice()).toBeNull();
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/providers/snap_standard/paymentPlanReview'));
  });

  it('speaks Spanish', async () => {
    await setLanguage('es');
    show();
    await choose('SNP-SAC-101');
    await userEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    const dialog = screen.getByRole('dialog', { name: 'Antes de elegir la opción de compra anticipada' });
    expect(dialog.textContent).toContain('El precio de contado de su tratamiento es $2,000.00.');
  });
});
