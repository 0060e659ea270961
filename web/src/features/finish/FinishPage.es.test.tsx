import { beforeEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { CurrentLocation } from '@/lib/api/types';
import { setLanguage } from '@/lib/i18n';
import { wording } from '@/lib/wording';
import { flow } from '@/stores/flow';
import { lender, withCatalogue } from '@/test/catalogue';
import { fixedRatePlan } from '@/test/fixtures';
import { CompletePage } from './CompletePage';
import { finishMessages, FinishPage } from './FinishPage';

/*
 * Finishing in Spanish: every outcome in both wordings, and the office's
 * words ("el encargado de la oficina", "el equipo de …") fitted into the
 * sentences without "a el" or "de el".
 */

function show(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/finish/:type', Component: FinishPage },
      { path: '/complete', Component: CompletePage },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
}

beforeEach(() => flow.reset());

describe('finishing in Spanish', () => {
  it('has every message in Spanish, in the office’s and the at-home wording, never "a el" or "de el"', async () => {
    await setLanguage('es');
    for (const brand of [null, 'Maple Street Dental']) {
      for (const [kind, m] of Object.entries(finishMessages(wording(brand)))) {
        expect(m.inStore, kind).not.toBe(m.atHome);
        expect(m.inStore, kind).toMatch(/lo recibe el (encargado de la oficina|equipo de Maple Street Dental)\.$/);
        expect(m.atHome, kind).not.toMatch(/devuelva/);
        expect(`${m.title} ${m.inStore} ${m.atHome}`, kind).not.toMatch(/\b(a|de) el\b/);
      }
    }
  });

  it('the cancel screen asks for a new QR code in Spanish', async () => {
    await setLanguage('es');
    flow.set({ experienceType: 'in_store' });
    show('/finish/cancel');
    expect(screen.getByRole('heading', { level: 1, name: 'Solicitud cancelada' })).toBeTruthy();
    expect(
      screen.getByText('Para volver a presentar una solicitud, consulte con el encargado de la oficina para obtener un nuevo código QR.'),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Volver a la pantalla de inicio' })).toBeTruthy();
  });

  it('the completion screen says the plan in Spanish, with its money', async () => {
    await setLanguage('es');
    withCatalogue([lender('snap_standard', 'Snap', { fundingName: 'Snap lease' })]);
    flow.set({
      providerKey: 'snap_standard',
      experienceType: 'in_store',
      location: { name: 'Desert Bloom Dental' } as CurrentLocation,
      selectedPaymentPlan: fixedRatePlan('snap_standard', { monthlyAmountCents: 13_250, durationMonths: 24 }),
    });
    show('/complete');
    expect(screen.getByRole('heading', { level: 1, name: '¡Todo listo!' })).toBeTruthy();
    expect(screen.getByText('Su financiamiento con Snap está completo.')).toBeTruthy();
    expect(screen.getByText('Su tratamiento en Desert Bloom Dental se paga con su Snap lease.')).toBeTruthy();
    expect(screen.getByText('24 pagos de $132.50')).toBeTruthy();
    expect(screen.getByText(/Por favor, devuelva el dispositivo: lo recibe el encargado de la oficina\./)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Finalizar' })).toBeTruthy();
  });
});
