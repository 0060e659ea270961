import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { setLanguage } from '@/lib/i18n';
import { flow } from '@/stores/flow';
import { lender } from '@/test/catalogue';
import { LoanPaymentPage } from './PaymentPages';

/* The payment method in Spanish: the screen, the card and account fields, and the checks made here before the server's. */

const post = vi.hoisted(() => vi.fn());
vi.mock('@/lib/api/client', async (actual) => {
  const real = await actual<typeof import('@/lib/api/client')>();
  return { ...real, api: { ...real.api, post } };
});

beforeEach(() => {
  post.mockReset();
  flow.reset();
  flow.set({ providerKey: 'hfd_standard', lenders: { hfd_standard: lender('hfd_standard', 'HFD', { kind: 'installment_loan' }) } });
});

describe('payment method in Spanish', () => {
  it('asks how the monthly payments are made, in Spanish, and checks the card in Spanish', async () => {
    await setLanguage('es');
    render(
      <RouterProvider
        router={createMemoryRouter([{ path: '/providers/:providerKey/loanPayment', Component: LoanPaymentPage }], {
          initialEntries: ['/providers/hfd_standard/loanPayment'],
        })}
      />,
    );
    expect(screen.getByRole('heading', { level: 1, name: '¿Cómo hará sus pagos mensuales?' })).toBeTruthy();
    expect(screen.getByText(/HFD cobra sus pagos mensuales automáticamente/)).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Número de tarjeta'), '4111111111111112');
    await userEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    expect(screen.getByText('Revise el número de su tarjeta: 16 dígitos, o 15 si es American Express.')).toBeTruthy();
    expect(screen.getAllByText('Campo obligatorio').length).toBeGreaterThan(0);
    expect(post).not.toHaveBeenCalled();

    await userEvent.click(screen.getByLabelText('Una cuenta de cheques'));
    expect(screen.getByLabelText('Número de ruta')).toBeTruthy();
    expect(screen.getByText('9 dígitos, abajo a la izquierda de sus cheques')).toBeTruthy();
  });
});
