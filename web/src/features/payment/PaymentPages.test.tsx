import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { flow } from '@/stores/flow';
import { BankAccountPage, PaymentSelectionPage } from './PaymentPages';

const post = vi.hoisted(() => vi.fn());
vi.mock('@/lib/api/client', async (actual) => {
  const real = await actual<typeof import('@/lib/api/client')>();
  return { ...real, api: { ...real.api, post } };
});

function show(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/providers/snap_standard/addBankAccount', Component: BankAccountPage },
      { path: '/providers/snap_standard/paymentSelection', Component: PaymentSelectionPage },
      { path: '/providers/snap_standard/terms', Component: () => <h1>Read and sign</h1> },
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
    expect(screen.getByText('Please enter the 9-digit routing number printed on your checks.')).toBeTruthy();
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
    await userEvent.click(screen.getByRole('button', { name: 'Continue to signing' }));
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

  it('checking needs no card and goes on to signing', async () => {
    const router = show('/providers/snap_standard/paymentSelection');
    await userEvent.click(screen.getByRole('button', { name: 'Continue to signing' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/providers/snap_standard/terms'));
    expect(post).not.toHaveBeenCalled();
  });
});
