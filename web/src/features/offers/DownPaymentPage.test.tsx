import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { PaymentPlan, WaterfallStep } from '@/lib/api/types';
import { flow } from '@/stores/flow';
import { lender } from '@/test/catalogue';
import { fixedRatePlan } from '@/test/fixtures';
import { acknowledgementRequired, DownPaymentPage } from './DownPaymentPage';

const post = vi.hoisted(() => vi.fn());
vi.mock('@/lib/api/client', async (actual) => {
  const real = await actual<typeof import('@/lib/api/client')>();
  return { ...real, api: { ...real.api, post, get: vi.fn().mockResolvedValue({ waterfall: [] }) } };
});

const HFD = 'hfd_standard';
/** HFD, $4,500 with 10 % down: $4,050 financed at 0 % in six payments of $675.00. */
const plan: PaymentPlan = fixedRatePlan(HFD, {
  providerPlanCode: 'HFD-IL-06',
  typeId: 'fixed_installment_loan',
  durationMonths: 6,
  monthlyAmountCents: 67_500,
  apr: 0,
  amountFinancedCents: 405_000,
  downPaymentCents: 45_000,
});

function setUp(experienceType: 'in_store' | 'at_home', role: string) {
  flow.reset();
  flow.set({
    providerKey: HFD,
    experienceType,
    purchaseAmountCents: 450000,
    selectedPaymentPlan: plan,
    lenders: { [HFD]: lender(HFD, 'HFD', { showDownPaymentAcknowledgeByProviderRoles: ['highline_secondary'] }) },
    waterfall: [{ providerKey: HFD, role, applyMode: 'prequalify', autoSubmit: false } as WaterfallStep],
  });
}

function show() {
  const router = createMemoryRouter(
    [
      { path: '/providers/:providerKey/downpayment', Component: DownPaymentPage },
      { path: '/providers/:providerKey/additionalContactInformation', Component: () => <h1>Contact screen</h1> },
    ],
    { initialEntries: [`/providers/${HFD}/downpayment`] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

const answer = { providerKey: HFD, status: 'offer_accepted', openSteps: ['additionalContactInformation', 'loanPayment'] };

describe('down payment screen', () => {
  beforeEach(() => {
    post.mockReset();
    post.mockResolvedValue(answer);
  });

  it('in the office: the table and amount, then a modal for the staff that pauses until they confirm', async () => {
    setUp('in_store', 'primary');
    const router = show();
    // One table from the treatment to the plan's amount financed, its payments and all the patient pays.
    expect(Array.from(screen.getByRole('table', { name: 'Down payment' }).querySelectorAll('tr')).map((r) => r.textContent)).toEqual([
      'Treatment total after discounts$4,500.00',
      'Down payment due today\u2212$450.00',
      'Amount financed$4,050.00',
      'Payments6 payments of $675.00',
      'Total you pay, with the down payment, over 6 months$4,500.00',
    ]);
    expect(screen.getByText(/hand the tablet to them/)).toBeTruthy();
    expect(screen.queryByRole('checkbox')).toBeNull(); // no acknowledgement as primary
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('dialog', { name: 'Please hand the tablet to the office team' })).toBeTruthy();
    expect(post).not.toHaveBeenCalled();
    // Cancel returns to the patient: nothing sent, still here.
    await userEvent.click(screen.getByRole('button', { name: 'Not yet — give the tablet back to the patient' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(post).not.toHaveBeenCalled();
    expect(router.state.location.pathname).toBe(`/providers/${HFD}/downpayment`);
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await userEvent.click(await screen.findByRole('button', { name: 'I collected the $450.00 down payment' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe(`/providers/${HFD}/additionalContactInformation`));
    expect(post).toHaveBeenCalledTimes(1);
    expect(post.mock.calls[0]?.[0]).toMatch(/application\/down-payment$/);
    expect(post.mock.calls[0]?.[1]).toEqual({ amountCents: 45000, method: 'collected_in_office', acknowledged: false });
    expect(flow.get().responses[HFD]?.openSteps).toEqual(['additionalContactInformation', 'loanPayment']);
  });

  it('as highline_secondary the acknowledgement is required before anything else', async () => {
    setUp('in_store', 'highline_secondary');
    show();
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText('Please check the box to continue')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    await userEvent.click(screen.getByLabelText(/I understand that HFD requires a down payment of \$450\.00/));
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await userEvent.click(await screen.findByRole('button', { name: 'I collected the $450.00 down payment' }));
    await vi.waitFor(() => expect(post).toHaveBeenCalledTimes(1));
    expect(post.mock.calls[0]?.[1]).toEqual({ amountCents: 45000, method: 'collected_in_office', acknowledged: true });
  });

  it('at home: paid at the office before treatment, which the patient confirms; no staff modal', async () => {
    setUp('at_home', 'primary');
    const router = show();
    expect(screen.getByText(/at the office, before your treatment begins/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText('Please check the box to continue')).toBeTruthy();
    expect(post).not.toHaveBeenCalled();
    await userEvent.click(screen.getByLabelText('I will pay the $450.00 down payment at the office before my treatment begins.'));
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await vi.waitFor(() => expect(router.state.location.pathname).toBe(`/providers/${HFD}/additionalContactInformation`));
    expect(post.mock.calls[0]?.[1]).toEqual({ amountCents: 45000, method: 'pay_at_office', acknowledged: false });
  });
});

describe('acknowledgementRequired', () => {
  const wf = (role: string) => [{ providerKey: HFD, role, applyMode: 'prequalify', autoSubmit: false } as WaterfallStep];
  it('follows the role the lender has in this office', () => {
    expect(acknowledgementRequired(['highline_secondary'], wf('highline_secondary'), HFD)).toBe(true);
    expect(acknowledgementRequired(['highline_secondary'], wf('primary'), HFD)).toBe(false);
    expect(acknowledgementRequired(undefined, wf('highline_secondary'), HFD)).toBe(false);
    expect(acknowledgementRequired(['highline_secondary'], null, HFD)).toBe(false);
  });
});
