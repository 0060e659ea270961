import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { LenderConfig } from '@/lib/api/types';
import { flow, useFlow } from '@/stores/flow';
import { lender, withCatalogue } from '@/test/catalogue';
import { decision, fixedRatePlan } from '@/test/fixtures';
import { PaymentPlansPage } from './PaymentPlansPage';

/*
 * The recalculate dialog (docs/behaviour.md, "Plans and offers"): a lender
 * whose catalogue entry asks for it (Proceed) has a new estimator amount
 * priced behind "Recalculating your payment plans…", announced to screen
 * readers, closed when the plans arrive and saying so when they fail.
 */

const post = vi.hoisted(() => vi.fn());
vi.mock('@/lib/api/client', async (actual) => {
  const real = await actual<typeof import('@/lib/api/client')>();
  return { ...real, api: { ...real.api, post } };
});

const PROCEED = lender('proceed_standard', 'Proceed', {
  kind: 'installment_loan',
  paymentCalculatorButtonsHidden: true,
  paymentCalculatorRecalculatingModal: true,
});
const SYNCHRONY = lender('synchrony_standard', 'Synchrony');

function show(p: LenderConfig) {
  withCatalogue([p]);
  flow.set({ providerKey: p.providerKey });
  flow.response(p.providerKey, {
    preAuth: { ...decision(p.providerKey, 'prequalified', { approvedAmountCents: 500_000 }), operation: 'prequalify' },
    paymentPlans: [fixedRatePlan(p.providerKey, { providerPlanCode: 'IL-24' })],
    paymentPlansAmountCents: 450_000,
  });
  const router = createMemoryRouter([{ path: '/providers/:providerKey/paymentPlans', Component: PaymentPlansPage }], {
    initialEntries: [`/providers/${p.providerKey}/paymentPlans`],
  });
  render(<RouterProvider router={router} />);
}

/** estimate types an amount into the estimator and asks for its plans. */
async function estimate(dollars: string) {
  const amount = screen.getByLabelText('Amount in dollars');
  await userEvent.clear(amount);
  await userEvent.type(amount, dollars);
  await userEvent.click(screen.getByRole('button', { name: 'Update plans' }));
}

const recalculating = () => screen.queryByRole('dialog', { name: 'Recalculating your payment plans…' });

beforeEach(() => {
  post.mockReset();
  flow.reset();
});

describe('the recalculate dialog', () => {
  it('shows while a new amount is priced, announces it, and closes itself when the plans arrive', async () => {
    let answer!: (v: unknown) => void;
    post.mockReturnValue(new Promise((resolve) => (answer = resolve)));
    show(PROCEED);
    await estimate('4000');
    const dialog = recalculating()!;
    expect(dialog).toBeTruthy();
    expect(within(dialog).getByRole('status').textContent).toBe('Getting payment plans from Proceed…');
    // The dialog says it; the page's own waiting message stays away.
    expect(useFlow.getState().progress).toBeNull();
    answer({ paymentPlans: [fixedRatePlan('proceed_standard', { providerPlanCode: 'IL-24', amountFinancedCents: 400_000 })] });
    await vi.waitFor(() => expect(recalculating()).toBeNull());
    expect(screen.getByRole('heading', { name: 'Payment plans for $4,000.00' })).toBeTruthy();
  });

  it('says so when the plans cannot be priced, until closed', async () => {
    post.mockRejectedValue(new Error('offline'));
    show(PROCEED);
    await estimate('4000');
    const failed = await screen.findByRole('dialog', { name: 'We couldn’t recalculate your payment plans' });
    expect(within(failed).getByRole('alert').textContent).toBe(
      'The plans on the screen are still those for the amount before. Please try again, or ask the office manager for help.',
    );
    expect(recalculating()).toBeNull();
    await userEvent.click(within(failed).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('is not shown for a lender that does not ask for it', async () => {
    post.mockResolvedValue({ paymentPlans: [] });
    const messages: (string | null)[] = [];
    const stop = useFlow.subscribe((st) => messages.push(st.progress));
    show(SYNCHRONY);
    await estimate('4000');
    await vi.waitFor(() => expect(post).toHaveBeenCalled());
    stop();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(messages).toContain('Getting payment plans from Synchrony…');
  });
});
