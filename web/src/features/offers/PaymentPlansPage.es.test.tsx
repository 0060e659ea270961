import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { setLanguage } from '@/lib/i18n';
import { flow } from '@/stores/flow';
import { useUi } from '@/stores/ui';
import { lender, withCatalogue } from '@/test/catalogue';
import { decision, fixedRatePlan } from '@/test/fixtures';
import LearnHowDrawer from './LearnHowDrawer';
import { PaymentPlanReviewPage } from './PaymentPlanReviewPage';
import { PaymentPlansPage } from './PaymentPlansPage';

/*
 * The plans screen in Spanish (docs/languages.md): every word from the
 * Spanish catalogue, the lender's and product's names as they are, and money
 * in US dollars with US digit grouping.
 */

const post = vi.hoisted(() => vi.fn());
vi.mock('@/lib/api/client', async (actual) => {
  const real = await actual<typeof import('@/lib/api/client')>();
  return { ...real, api: { ...real.api, post } };
});

const SYNCHRONY = lender('synchrony_standard', 'Synchrony', { financingName: 'Synchrony Health Card' });
const plans = [
  fixedRatePlan('synchrony_standard', { providerPlanCode: 'SYN-FR-24' }),
  fixedRatePlan('synchrony_standard', { providerPlanCode: 'SYN-DI-12', typeId: 'deferred_interest', durationMonths: 12, monthlyAmountCents: 37_500 }),
];

function show() {
  const router = createMemoryRouter(
    [
      { path: '/providers/:providerKey/paymentPlans', Component: PaymentPlansPage },
      { path: '/providers/:providerKey/paymentPlanReview', Component: PaymentPlanReviewPage },
    ],
    { initialEntries: ['/providers/synchrony_standard/paymentPlans'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

beforeEach(() => {
  post.mockReset();
  post.mockResolvedValue({});
  flow.reset();
  useUi.setState({ learnHow: null });
  withCatalogue([SYNCHRONY]);
  flow.set({ providerKey: 'synchrony_standard' });
  flow.response('synchrony_standard', {
    preAuth: { ...decision('synchrony_standard', 'prequalified', { approvedAmountCents: 500_000 }), operation: 'prequalify' },
    paymentPlans: plans,
    paymentPlansAmountCents: 450_000,
  });
});

describe('the plans screen in Spanish', () => {
  it('shows the offer, the estimator and the plans in Spanish, with dollars as dollars', async () => {
    await setLanguage('es');
    show();
    expect(screen.getByRole('heading', { level: 1, name: 'Elija su plan de pagos' })).toBeTruthy();
    expect(screen.getByText('¡Felicidades! Synchrony le dio una precalificación para Synchrony Health Card por un monto de hasta')).toBeTruthy();
    expect(screen.getByText('$5,000.00')).toBeTruthy();
    expect(screen.getByText(/^Oferta válida hasta: .+ \(\d+ días\)$/)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Planes de pago para $4,500.00' })).toBeTruthy();
    expect(screen.getByLabelText('Monto en dólares')).toBeTruthy();
    expect(screen.getByText('Pagos mensuales fijos durante 24 meses')).toBeTruthy();
    expect(screen.getByText('23 pagos de $224.44 y un último pago de $224.47')).toBeTruthy();
    expect(screen.getByText('Costo total $5,386.59')).toBeTruthy();
    expect(screen.getByText('Sin intereses si paga el total dentro de 12 meses')).toBeTruthy();
    expect(screen.getByText('Sugerido: 12 pagos de $375.00')).toBeTruthy();
    expect(screen.getByText(/se cobran intereses a una APR de 17\.90% desde la fecha de compra/)).toBeTruthy();
    expect(screen.getByText('Sugerido')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    expect(screen.getByRole('alert').textContent).toBe('Por favor, elija un plan de pagos');
  });

  it('speaks Spanish as soon as the patient switches, without losing the screen', async () => {
    show();
    expect(screen.getByRole('heading', { level: 1, name: 'Choose your payment plan' })).toBeTruthy();
    await act(() => setLanguage('es'));
    expect(screen.getByRole('heading', { level: 1, name: 'Elija su plan de pagos' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Actualizar planes' })).toBeTruthy();
  });

  it('reviews the chosen plan in Spanish, naming the APR in full', async () => {
    await setLanguage('es');
    const router = show();
    await userEvent.click(screen.getAllByRole('radio').find((r) => r.id.endsWith('-SYN-DI-12'))!);
    expect(screen.getByText('12 pagos de $375.00', { selector: 'strong' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/providers/synchrony_standard/paymentPlanReview'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Revise su plan' })).toBeTruthy();
    expect(screen.getByText('APR (tasa de porcentaje anual) si no paga el total dentro de 12 meses')).toBeTruthy();
    expect(screen.getByText('Pagos sugeridos')).toBeTruthy();
    expect(screen.getByText('Importante: cómo funciona el interés diferido')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Aceptar la oferta' })).toBeTruthy();
  });

  it('explains a plan in Spanish', async () => {
    await setLanguage('es');
    render(<LearnHowDrawer plan={plans[0]!} onClose={() => undefined} />);
    expect(screen.getByText('Financiamiento con pagos fijos por 24 meses')).toBeTruthy();
    expect(screen.getByText('23 pagos de $224.44 y un último pago de $224.47')).toBeTruthy();
    expect(screen.getByText(/con una APR \(tasa de porcentaje anual\) de 17\.90%/)).toBeTruthy();
    expect(screen.getByText(/Como estimación, cada mes paga aproximadamente el 4\.99% del monto financiado/)).toBeTruthy();
  });
});
