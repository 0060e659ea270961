import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { flow } from '@/stores/flow';
import { ApiError } from '@/lib/api/client';
import { lender } from '@/test/catalogue';
import { BankAccountPage, LoanPaymentPage, PaymentSelectionPage } from './PaymentPages';

const post = vi.hoisted(() => vi.fn());
const get = vi.hoisted(() => vi.fn());
vi.mock('@/lib/api/client', async (actual) => {
  const real = await actual<typeof import('@/lib/api/client')>();
  return { ...real, api: { ...real.api, post, get } };
});

function show(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/providers/snap_standard/addBankAccount', Component: BankAccountPage },
      { path: '/providers/snap_standard/paymentSelection', Component: PaymentSelectionPage },
      { path: '/providers/snap_standard/terms', Component: () => <h1>Read and sign</h1> },
      { path: '/providers/:providerKey/loanPayment', Component: LoanPaymentPage },
      { path: '/providers/:providerKey/agreement', Component: () => <h1>Agreement screen</h1> },
      { path: '/providers/:providerKey/terms', Component: () => <h1>Read and sign</h1> },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

describe('payment screens', () => {
  beforeEach(() => {
    post.mockReset();
    post.mockResolvedValue({});
    get.mockReset();
    get.mockResolvedValue({ providerKey: 'snap_standard', status: 'offer_accepted' });
    flow.set({ providerKey: 'snap_standard' });
  });

  it('bank account: numeric keypads, masks, checksum, then sends', async () => {
    const router = show('/providers/snap_standard/addBankAccount');
    const routing = screen.getByLabelText('Routing number');
    expect(routing.getAttribute('inputmode')).toBe('numeric');
    await userEvent.type(routing, '01-1000016999');
    expect((routing as HTMLInputElement).value).toBe('011000016');
    await userEvent.type(screen.getByLabelText('Account number'), '1234567890123456789');
    expect((screen.getByLabelText('Account number') as HTMLInputElement).value).toBe('12345678901234567');
    await userEvent.type(screen.getByLabelText('Bank name'), 'First Test Bank');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText('This isn’t a routing number we recognize. Please check each digit against your checks.')).toBeTruthy();
    expect(post).not.toHaveBeenCalled();
    await userEvent.clear(routing);
    await userEvent.type(routing, '011000015');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/providers/snap_standard/paymentSelection'));
    expect(post.mock.calls[0]?.[0]).toMatch(/application\/bank-account$/);
    expect(post.mock.calls[0]?.[1]).toEqual({
      routingNumber: '011000015',
      accountNumber: '12345678901234567',
      bankName: 'First Test Bank',
      accountType: 'checking',
    });
  });

  it('card: Amex masks, sends once and keeps the number and CVV nowhere', async () => {
    const router = show('/providers/snap_standard/paymentSelection');
    await userEvent.click(screen.getByLabelText('A debit or credit card'));
    await userEvent.type(screen.getByLabelText('Name on card'), 'Pat Approve');
    const number = screen.getByLabelText('Card number') as HTMLInputElement;
    await userEvent.type(number, '3782822463100059');
    expect(number.value).toBe('3782 822463 10005');
    const cvv = screen.getByLabelText('Security code (CVV)') as HTMLInputElement;
    await userEvent.type(cvv, '123456');
    expect(cvv.value).toBe('1234');
    await userEvent.type(screen.getByLabelText('Expiry (MM/YY)'), '1299');
    await userEvent.type(screen.getByLabelText('Billing ZIP code'), '891011');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/providers/snap_standard/terms'));
    expect(post).toHaveBeenCalledTimes(1);
    expect(post.mock.calls[0]?.[1]).toEqual({
      cardholderName: 'Pat Approve',
      cardNumber: '378282246310005',
      expiryMonth: 12,
      expiryYear: 2099,
      cvv: '1234',
      zip: '89101',
    });
    const kept = JSON.stringify(flow.get()) + JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage });
    expect(kept).not.toContain('378282246310005');
    expect(kept).not.toContain('"1234"');
  });

  it('checking needs no card and goes on to the next open step the server names, else signing', async () => {
    const router = show('/providers/snap_standard/paymentSelection');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/providers/snap_standard/terms'));
    expect(post).not.toHaveBeenCalled();
    expect(get.mock.calls[0]?.[0]).toMatch(/providers\/snap_standard\/application$/);

    get.mockResolvedValue({ providerKey: 'snap_standard', status: 'offer_accepted', openSteps: ['agreement'] });
    const again = show('/providers/snap_standard/paymentSelection');
    await userEvent.click(screen.getAllByRole('button', { name: 'Continue' }).at(-1)!);
    await vi.waitFor(() => expect(again.state.location.pathname).toBe('/providers/snap_standard/agreement'));
  });
});

describe('Snap: a lease’s payments come from the checking account', () => {
  beforeEach(() => {
    post.mockReset();
    post.mockResolvedValue({ providerKey: 'snap_standard', status: 'offer_accepted', openSteps: ['agreement'] });
    get.mockReset();
    get.mockResolvedValue({ providerKey: 'snap_standard', status: 'offer_accepted', openSteps: ['agreement'] });
    flow.set({ providerKey: 'snap_standard', lenders: { snap_standard: lender('snap_standard', 'Snap', { kind: 'lease_to_own' }) } });
  });

  it('says so on the bank-account screen, then goes on to the next open step without offering a card', async () => {
    const router = show('/providers/snap_standard/addBankAccount');
    expect(screen.getByText('Snap draws your lease payments from a checking account. You need one before signing.')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Routing number'), '011000015');
    await userEvent.type(screen.getByLabelText('Account number'), '000123456789');
    await userEvent.type(screen.getByLabelText('Bank name'), 'First Test Bank');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    // Before, the next screen offered "A debit or credit card" for the payments.
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/providers/snap_standard/agreement'));
    expect(post).toHaveBeenCalledTimes(1);
  });

  it('the payment-choice screen, reached anyway, offers no card', async () => {
    const router = show('/providers/snap_standard/paymentSelection');
    expect(screen.getByRole('heading', { name: 'Your lease payments' })).toBeTruthy();
    expect(screen.queryByLabelText('A debit or credit card')).toBeNull();
    expect(screen.queryByLabelText('Card number')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/providers/snap_standard/agreement'));
    expect(post).not.toHaveBeenCalled();
  });
});

describe('loan payment (HFD)', () => {
  const refused = () =>
    new ApiError(400, {
      code: 'validation_error',
      message: 'The lender could not accept this card.',
      fieldErrors: [{ field: 'bankCard.cardNumber', message: 'The card issuer did not accept this card.' }],
    });

  async function typeCard() {
    await userEvent.type(screen.getByLabelText('Name on card'), 'Pat Approve');
    await userEvent.type(screen.getByLabelText('Card number'), '4000000000000002');
    await userEvent.type(screen.getByLabelText('Expiry (MM/YY)'), '1299');
    await userEvent.type(screen.getByLabelText('Security code (CVV)'), '123');
    await userEvent.type(screen.getByLabelText('Billing ZIP code'), '77002');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
  }

  beforeEach(() => {
    post.mockReset();
    get.mockReset();
    flow.set({ providerKey: 'hfd_standard', lenders: { hfd_standard: lender('hfd_standard', 'HFD', { showBankCardErrorModal: true }) } });
  });

  it("checks the card here first, in the patient's words, and sends nothing until it passes", async () => {
    show('/providers/hfd_standard/loanPayment');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getAllByText('Required Field').length).toBeGreaterThan(0);
    expect(screen.getByText('Please enter an expiry date that has not passed (MM/YY).')).toBeTruthy();
    expect(post).not.toHaveBeenCalled();
  });

  it('a refused card opens the kind modal: another card, or a checking account instead', async () => {
    post.mockRejectedValueOnce(refused());
    post.mockResolvedValueOnce({ providerKey: 'hfd_standard', status: 'offer_accepted' });
    const router = show('/providers/hfd_standard/loanPayment');
    await typeCard();
    const dialog = await screen.findByRole('dialog', { name: 'This card could not be used' });
    expect(dialog.textContent).toContain('Your plan is not affected');
    expect(dialog.textContent).not.toMatch(/declin/i);
    // The number and CVV were cleared once sent.
    expect((screen.getByLabelText('Card number') as HTMLInputElement).value).toBe('');
    await userEvent.click(screen.getByRole('button', { name: 'Use a checking account' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await userEvent.type(screen.getByLabelText('Routing number'), '011000015');
    await userEvent.type(screen.getByLabelText('Account number'), '000123456789');
    await userEvent.type(screen.getByLabelText('Bank name'), 'First Test Bank');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/providers/hfd_standard/terms'));
    expect(post.mock.calls.map((c) => String(c[0]).split('/').pop())).toEqual(['bank-card', 'bank-account']);
  });

  it('"Try another card" closes the modal and keeps the card form', async () => {
    post.mockRejectedValueOnce(refused());
    show('/providers/hfd_standard/loanPayment');
    await typeCard();
    await screen.findByRole('dialog', { name: 'This card could not be used' });
    await userEvent.click(screen.getByRole('button', { name: 'Try another card' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByLabelText('Card number')).toBeTruthy();
  });

  it('without the catalogue flag a refusal stays on the field, with no modal', async () => {
    flow.set({ lenders: { hfd_standard: lender('hfd_standard', 'HFD', { showBankCardErrorModal: false }) } });
    post.mockRejectedValueOnce(refused());
    show('/providers/hfd_standard/loanPayment');
    await typeCard();
    expect(await screen.findByText('The card issuer did not accept this card.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
