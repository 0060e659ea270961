import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { PaymentPlan, LenderConfig } from '@/lib/api/types';
import { flow, useFlow } from '@/stores/flow';
import { useUi } from '@/stores/ui';
import { lender, withCatalogue } from '@/test/catalogue';
import { decision, fixedRatePlan } from '@/test/fixtures';
import { PaymentPlanReviewPage } from './PaymentPlanReviewPage';
import { PaymentPlansPage } from './PaymentPlansPage';

/*
 * The plans screen reads the lender's catalogue entry (docs/behaviour.md,
 * "Plans and offers"): the plan-type filter, partner lenders, several
 * offers side by side, the full cost of a loan, the calculator's minimum,
 * the explanation shown unasked, and the choice taken on the review screen.
 */

const post = vi.hoisted(() => vi.fn());
vi.mock('@/lib/api/client', async (actual) => {
  const real = await actual<typeof import('@/lib/api/client')>();
  return { ...real, api: { ...real.api, post } };
});

const SYNCHRONY = lender('synchrony_standard', 'Synchrony', {
  financingName: 'Synchrony Health Card',
  paymentPlanFilterOverrides: { credit_card: ['deferred_interest', 'fixed_rate'] },
});
const PROCEED = lender('proceed_standard', 'Proceed', {
  kind: 'installment_loan',
  subLenders: [
    { providerId: 'harbor', name: 'Harbor Community Bank', logo: '/logos/harbor.svg' },
    { providerId: 'cedarline', name: 'Cedarline Credit Union', logo: '/logos/cedarline.svg' },
  ],
});
const LENDINGCLUB = lender('lendingclub_standard', 'LendingClub', { kind: 'installment_loan', selectPaymentPlanOnReviewScreen: true });
const AFF = lender('aff_standard', 'AFF', { kind: 'installment_loan', showPaymentPlanDetails: true });
const COVERED = lender('covered_care_standard', 'Covered Care', { kind: 'installment_loan', minPaymentCalculatorCents: 50_000 });
const GENESIS = lender('genesis_aspen', 'Genesis', { autoShowLearnHowDrawer: true, fundingSourceDescription: 'A second-look credit card.' });

function offer(p: LenderConfig, plans: PaymentPlan[], over: Parameters<typeof decision>[2] = {}) {
  flow.response(p.providerKey, {
    preAuth: { ...decision(p.providerKey, 'prequalified', { approvedAmountCents: 500_000, ...over }), operation: 'prequalify' },
    paymentPlans: plans,
    paymentPlansAmountCents: 450_000,
  });
}

function show(providerKey: string) {
  const router = createMemoryRouter(
    [
      { path: '/providers/:providerKey/paymentPlans', Component: PaymentPlansPage },
      { path: '/providers/:providerKey/paymentPlanReview', Component: PaymentPlanReviewPage },
      { path: '/providers/:providerKey/acceptOfferSubmit', Component: () => <h1>Accepting</h1> },
    ],
    { initialEntries: [`/providers/${providerKey}/paymentPlans`] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

const cardOf = (code: string) => screen.getAllByRole('radio').find((r) => r.id.endsWith(`-${code}`));

beforeEach(() => {
  post.mockReset();
  post.mockResolvedValue({});
  flow.reset();
  useUi.setState({ learnHow: null });
  withCatalogue([SYNCHRONY, PROCEED, LENDINGCLUB, AFF, COVERED, GENESIS]);
});

describe('the plans screen follows the lender’s catalogue entry', () => {
  it('Synchrony: only the plan types its filter names, and a choice between them', async () => {
    flow.set({ providerKey: 'synchrony_standard' });
    offer(SYNCHRONY, [
      fixedRatePlan('synchrony_standard', { providerPlanCode: 'SYN-FR-24' }),
      fixedRatePlan('synchrony_standard', {
        providerPlanCode: 'SYN-DI-12',
        typeId: 'deferred_interest',
        durationMonths: 12,
        monthlyAmountCents: 37_500,
      }),
      fixedRatePlan('synchrony_standard', { providerPlanCode: 'SYN-IL-36', typeId: 'fixed_installment_loan', durationMonths: 36 }),
    ]);
    show('synchrony_standard');
    expect(screen.getByText(/approved you for a Synchrony Health Card of up to|prequalified you for a Synchrony Health Card of up to/)).toBeTruthy();
    // The installment plan is not a type Synchrony's card shows.
    expect(cardOf('SYN-IL-36')).toBeUndefined();
    expect(screen.getAllByRole('radio')).toHaveLength(2);
    const filter = screen.getByRole('group', { name: 'Show plans of one type' });
    await userEvent.click(within(filter).getByRole('button', { name: 'Fixed monthly payments' }));
    expect(within(filter).getByRole('button', { name: 'Fixed monthly payments' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getAllByRole('radio').map((r) => r.id)).toEqual(['plan-synchrony_standard-SYN-FR-24']);
    await userEvent.click(within(filter).getByRole('button', { name: 'All plans' }));
    expect(screen.getAllByRole('radio')).toHaveLength(2);
  });

  it('Proceed: a partner lender’s plans under its own heading and logo, and the offer names the partner', () => {
    flow.set({ providerKey: 'proceed_standard' });
    offer(
      PROCEED,
      [
        fixedRatePlan('proceed_standard', { providerPlanCode: 'PRO-IL-24', typeId: 'fixed_installment_loan' }),
        fixedRatePlan('proceed_standard', { providerPlanCode: 'PRO-HAR-NI-12', typeId: 'sub_lender_no_interest', subLenderId: 'harbor' }),
      ],
      { offeredProviderId: 'cedarline' },
    );
    show('proceed_standard');
    expect(screen.getByText(/Cedarline Credit Union, through Proceed, prequalified you/)).toBeTruthy();
    const harbor = screen.getByRole('group', { name: 'Plans from Harbor Community Bank, through Proceed' });
    expect(within(harbor).getByRole('img', { name: /logo/ }).getAttribute('src')).toBe('/logos/harbor.svg');
    expect(within(harbor).getByText('From Harbor Community Bank')).toBeTruthy();
    // The offer came through Cedarline: Proceed's own plans carry its logo.
    const cedarline = screen.getByRole('group', { name: 'Plans from Cedarline Credit Union, through Proceed' });
    expect(within(cedarline).getByRole('img', { name: /logo/ }).getAttribute('src')).toBe('/logos/cedarline.svg');
  });

  it('two lenders’ offers: both in the header, what each product is, plans grouped by lender', () => {
    flow.set({ providerKey: 'synchrony_standard' });
    offer(SYNCHRONY, [fixedRatePlan('synchrony_standard', { providerPlanCode: 'SYN-FR-24' })]);
    offer(GENESIS, [fixedRatePlan('genesis_aspen', { providerPlanCode: 'GEN-FR-18', durationMonths: 18, amountFinancedCents: 300_000 })], {
      approvedAmountCents: 300_000,
    });
    show('synchrony_standard');
    expect(screen.getByRole('heading', { name: 'You have 2 offers' })).toBeTruthy();
    expect(screen.getByText('A second-look credit card.')).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Plans from Synchrony' })).toBeTruthy();
    expect(within(screen.getByRole('group', { name: 'Plans from Genesis' })).getAllByRole('radio')).toHaveLength(1);
  });

  it('two lenders’ offers: the estimator asks both, each within its own approval, and names them by their short names', async () => {
    withCatalogue([
      { ...SYNCHRONY, abbreviatedName: 'SYF' },
      { ...GENESIS, abbreviatedName: 'GEN' },
    ]);
    flow.set({ providerKey: 'synchrony_standard' });
    offer(SYNCHRONY, [fixedRatePlan('synchrony_standard', { providerPlanCode: 'SYN-FR-24' })]);
    offer(GENESIS, [fixedRatePlan('genesis_aspen', { providerPlanCode: 'GEN-FR-18', amountFinancedCents: 300_000 })], {
      approvedAmountCents: 300_000,
    });
    const messages: (string | null)[] = [];
    const stop = useFlow.subscribe((st) => messages.push(st.progress));
    post.mockResolvedValue({ paymentPlans: [] });
    show('synchrony_standard');
    const amount = screen.getByLabelText('Amount in dollars');
    await userEvent.clear(amount);
    await userEvent.type(amount, '4000');
    await userEvent.click(screen.getByRole('button', { name: 'Update plans' }));
    await vi.waitFor(() => expect(post).toHaveBeenCalledTimes(2));
    stop();
    expect(post).toHaveBeenCalledWith(expect.stringMatching(/synchrony_standard\/payment\/plans$/), { amountCents: 400_000 }, expect.anything());
    expect(post).toHaveBeenCalledWith(expect.stringMatching(/genesis_aspen\/payment\/plans$/), { amountCents: 300_000 }, expect.anything());
    expect(messages).toContain('Getting payment plans from SYF and GEN…');
  });

  it('AFF: each loan shows its amount financed, finance charge and total of payments, as the plan states them', () => {
    flow.set({ providerKey: 'aff_standard' });
    offer(AFF, [fixedRatePlan('aff_standard', { providerPlanCode: 'AFF-IL-24', typeId: 'fixed_installment_loan' })]);
    show('aff_standard');
    expect(screen.getByText('Amount financed $4,500.00')).toBeTruthy();
    expect(screen.getByText('Finance charge $886.59')).toBeTruthy();
    expect(screen.getByText('Total of payments $5,386.59')).toBeTruthy();
    expect(screen.getByText('23 payments of $224.44 and a final payment of $224.47')).toBeTruthy();
  });

  it('AFF: a down payment says it is never more than the lender’s maximum', () => {
    flow.set({ providerKey: 'aff_standard' });
    offer({ ...AFF, maxDownPaymentCents: 5000 }, [
      fixedRatePlan('aff_standard', { providerPlanCode: 'AFF-IL-24', downPaymentCents: 5000, amountFinancedCents: 445_000 }),
    ]);
    withCatalogue([{ ...AFF, maxDownPaymentCents: 5000 }]);
    show('aff_standard');
    expect(screen.getByRole('heading', { name: 'Your down payment' })).toBeTruthy();
    expect(screen.getByText('AFF never asks for more than $50.00 down.')).toBeTruthy();
  });

  it('Covered Care: the calculator says where plans start, and a typed amount below it is refused in words, not priced', async () => {
    flow.set({ providerKey: 'covered_care_standard' });
    offer(COVERED, [fixedRatePlan('covered_care_standard', { providerPlanCode: 'CC-IL-12', minAmountCents: 30_000 })]);
    post.mockResolvedValue({ paymentPlans: [] });
    show('covered_care_standard');
    expect(screen.getByText(/plans start at \$500\b/)).toBeTruthy();
    const amount = screen.getByLabelText('Amount in dollars');
    await userEvent.clear(amount);
    await userEvent.type(amount, '200');
    await userEvent.click(screen.getByRole('button', { name: 'Update plans' }));
    // Before, $200 was silently priced as $500.
    expect(screen.getByRole('alert').textContent).toBe('Please enter an amount of at least $500. The plans below are still for $4,500.00.');
    expect(post).not.toHaveBeenCalled();
    expect(screen.getByRole('heading', { name: 'Payment plans for $4,500.00' })).toBeTruthy();
  });

  it('pressing − stops at the lowest amount a plan below is for, and the box and the heading always show the amount priced', async () => {
    flow.set({ providerKey: 'synchrony_standard' });
    offer(SYNCHRONY, [fixedRatePlan('synchrony_standard', { providerPlanCode: 'SYN-FR-24', minAmountCents: 30_000 })], {
      approvedAmountCents: 1_200_000,
    });
    flow.response('synchrony_standard', { paymentPlansAmountCents: 120_000 });
    post.mockImplementation(async (_path: string, body: { amountCents: number }) => ({
      paymentPlans: [
        fixedRatePlan('synchrony_standard', { providerPlanCode: 'SYN-FR-24', minAmountCents: 30_000, amountFinancedCents: body.amountCents }),
      ],
    }));
    show('synchrony_standard');
    const amount = screen.getByLabelText<HTMLInputElement>('Amount in dollars');
    const lower = screen.getByRole('button', { name: 'Lower the amount by $500' });
    expect(amount.value).toBe('1,200');
    await userEvent.click(lower);
    await vi.waitFor(() => expect(screen.getByRole('heading', { name: 'Payment plans for $700.00' })).toBeTruthy());
    expect(amount.value).toBe('700');
    await userEvent.click(lower);
    // $200 is below every plan: the amount stops at the plan's $300 minimum, never at 0.
    await vi.waitFor(() => expect(screen.getByRole('heading', { name: 'Payment plans for $300.00' })).toBeTruthy());
    expect(amount.value).toBe('300');
    expect(lower.hasAttribute('disabled')).toBe(true);
    expect(post.mock.calls.map((c) => (c[1] as { amountCents: number }).amountCents)).toEqual([70_000, 30_000]);
  });

  it('when the lender cannot price an amount, the box goes back to the amount the plans below are for, and says so', async () => {
    flow.set({ providerKey: 'synchrony_standard' });
    offer(SYNCHRONY, [fixedRatePlan('synchrony_standard', { providerPlanCode: 'SYN-FR-24' })]);
    post.mockRejectedValue(new Error('lender down'));
    show('synchrony_standard');
    const amount = screen.getByLabelText<HTMLInputElement>('Amount in dollars');
    await userEvent.clear(amount);
    await userEvent.type(amount, '3000');
    await userEvent.click(screen.getByRole('button', { name: 'Update plans' }));
    await vi.waitFor(() => expect(screen.getByRole('alert').textContent).toMatch(/We couldn’t get the payment plans just now/));
    expect(amount.value).toBe('4,500');
    expect(screen.getByRole('heading', { name: 'Payment plans for $4,500.00' })).toBeTruthy();
  });

  it('the amount box shows dollars as the application form does, with thousands commas, and asks for what it shows', async () => {
    flow.set({ providerKey: 'synchrony_standard' });
    offer(SYNCHRONY, [fixedRatePlan('synchrony_standard', { providerPlanCode: 'SYN-FR-24' })]);
    post.mockResolvedValue({ paymentPlans: [] });
    show('synchrony_standard');
    const amount = screen.getByLabelText<HTMLInputElement>('Amount in dollars');
    expect(amount.value).toBe('4,500');
    await userEvent.clear(amount);
    await userEvent.paste('$12,000.50');
    expect(amount.value).toBe('12,000');
    await userEvent.clear(amount);
    await userEvent.type(amount, '3200');
    expect(amount.value).toBe('3,200');
    await userEvent.click(screen.getByRole('button', { name: 'Update plans' }));
    await vi.waitFor(() =>
      expect(post).toHaveBeenCalledWith(expect.stringMatching(/synchrony_standard\/payment\/plans$/), { amountCents: 320_000 }, expect.anything()),
    );
  });

  it('$0 (or nothing) in the estimator says so out loud, asks no lender, and says which amount the plans on screen are for', async () => {
    flow.set({ providerKey: 'synchrony_standard' });
    offer(SYNCHRONY, [fixedRatePlan('synchrony_standard', { providerPlanCode: 'SYN-FR-24' })]);
    show('synchrony_standard');
    const amount = screen.getByLabelText('Amount in dollars');
    for (const typed of ['0', '']) {
      await userEvent.clear(amount);
      if (typed) await userEvent.type(amount, typed);
      await userEvent.click(screen.getByRole('button', { name: 'Update plans' }));
      // The plans below start at $200 (their minimum), so that is the least asked for.
      expect(screen.getByRole('alert').textContent).toBe('Please enter an amount of at least $200. The plans below are still for $4,500.00.');
      expect(amount.getAttribute('aria-invalid')).toBe('true');
      expect(document.activeElement).toBe(amount);
    }
    expect(post).not.toHaveBeenCalled();
    await userEvent.type(amount, '3');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a lender that explains its plans unasked opens the explanation of the suggested plan once', () => {
    flow.set({ providerKey: 'genesis_aspen' });
    offer(GENESIS, [
      fixedRatePlan('genesis_aspen', { providerPlanCode: 'GEN-FR-18', monthlyAmountCents: 30_000 }),
      fixedRatePlan('genesis_aspen', { providerPlanCode: 'GEN-DI-12', typeId: 'deferred_interest', monthlyAmountCents: 37_500 }),
    ]);
    show('genesis_aspen');
    expect(useUi.getState().learnHow?.providerPlanCode).toBe('GEN-DI-12');
  });

  it('a lender without that flag opens nothing by itself', () => {
    flow.set({ providerKey: 'synchrony_standard' });
    offer(SYNCHRONY, [fixedRatePlan('synchrony_standard', { providerPlanCode: 'SYN-FR-24' })]);
    show('synchrony_standard');
    expect(useUi.getState().learnHow).toBeNull();
  });

  it('LendingClub: the choice is told to the lender on the review screen, where the plan can still change', async () => {
    flow.set({ providerKey: 'lendingclub_standard' });
    offer(LENDINGCLUB, [
      fixedRatePlan('lendingclub_standard', { providerPlanCode: 'LC-IL-24', typeId: 'fixed_installment_loan' }),
      fixedRatePlan('lendingclub_standard', {
        providerPlanCode: 'LC-IL-36',
        typeId: 'fixed_installment_loan',
        durationMonths: 36,
        monthlyAmountCents: 16_000,
      }),
    ]);
    const router = show('lendingclub_standard');
    await userEvent.click(cardOf('LC-IL-24')!);
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/providers/lendingclub_standard/paymentPlanReview'));
    expect(post).not.toHaveBeenCalled();
    await userEvent.click(await screen.findByText('Change plan'));
    await userEvent.click(cardOf('LC-IL-36')!);
    expect(flow.get().selectedPaymentPlan?.providerPlanCode).toBe('LC-IL-36');
    await userEvent.click(screen.getByRole('button', { name: 'Accept offer' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/providers/lendingclub_standard/acceptOfferSubmit'));
    expect(post).toHaveBeenCalledTimes(1);
    expect(post.mock.calls[0]?.[0]).toMatch(/lendingclub_standard\/payment\/plans\/LC-IL-36\/select$/);
  });

  it('any other lender is told on the plans screen, and not told twice', async () => {
    flow.set({ providerKey: 'synchrony_standard' });
    offer(SYNCHRONY, [fixedRatePlan('synchrony_standard', { providerPlanCode: 'SYN-FR-24' })]);
    const router = show('synchrony_standard');
    await userEvent.click(cardOf('SYN-FR-24')!);
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/providers/synchrony_standard/paymentPlanReview'));
    expect(post.mock.calls[0]?.[0]).toMatch(/SYN-FR-24\/select$/);
    const accept = await screen.findByRole('button', { name: 'Accept offer' });
    expect(screen.queryByText('Change plan')).toBeNull();
    await userEvent.click(accept);
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/providers/synchrony_standard/acceptOfferSubmit'));
    expect(post).toHaveBeenCalledTimes(1);
  });
});
