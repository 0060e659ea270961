import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { configureApi } from '@/lib/api/client';
import type { Decision, Session } from '@/lib/api/types';
import { setLanguage } from '@/lib/i18n';
import { flow } from '@/stores/flow';
import { lender, withCatalogue } from '@/test/catalogue';
import { decision } from '@/test/fixtures';
import { incomeProblem, limitProblem } from './api/creditLimit';
import { CreditLimitResultPage } from './CreditLimitPages';
import { switchNotice } from './messages';
import { DeclinedPage, ExistingAccountPage, ExpiredPage, PendingPage } from './ResultPages';

/*
 * The result screens in Spanish (docs/languages.md): our words from the
 * catalogues, the lenders' names and the server's descriptions as sent,
 * money in the US format, dates in Spanish. The office has no brand here, so
 * the neutral wording ("el encargado de la oficina", "el consultorio dental")
 * shows where it joins the sentence.
 */

const SYF = 'synchrony_standard';
const FORTIVA = 'fortiva_standard';

function renderAt(rest: string, page: React.ReactElement, providerKey = SYF) {
  const router = createMemoryRouter([{ path: '/providers/:providerKey/*', element: page }], {
    initialEntries: [`/providers/${providerKey}/${rest}`],
  });
  render(<RouterProvider router={router} />);
}

const answer = (providerKey: string, d: Decision) => flow.response(providerKey, { preAuth: d });

beforeEach(async () => {
  flow.reset();
  configureApi({ getSessionId: () => 's1', navigate: vi.fn(), onValidation: vi.fn(), currentPath: () => '/p' });
  flow.set({ session: { webSessionId: 's1' } as Session, providerKey: SYF, primaryLenderKey: SYF, applyMode: 'prequalify' });
  withCatalogue([lender(SYF, 'Synchrony'), lender(FORTIVA, 'Fortiva')]);
  await setLanguage('es');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('result screens in Spanish', () => {
  it('the declined screen names both lenders the Spanish way, in the plural, and where to turn', async () => {
    flow.set({ declinedBy: [SYF, FORTIVA] });
    answer(SYF, decision(SYF, 'declined'));
    answer(FORTIVA, decision(FORTIVA, 'declined'));
    renderAt('declined', <DeclinedPage />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Esta solicitud no fue aprobada' })).toBeTruthy();
    expect(
      screen.getByText(
        'Synchrony y Fortiva no pudieron aprobar esta solicitud. Cada uno le enviará una carta con el motivo en un plazo de 7 a 10 días hábiles.',
      ),
    ).toBeTruthy();
    expect(screen.getByText('Puede hablar con el encargado de la oficina sobre otras formas de pagar su tratamiento.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Terminar' })).toBeTruthy();
  });

  it('an existing account shows its money in US dollars and the practice without "a el"', async () => {
    flow.set({ purchaseAmountCents: 450_000 });
    flow.set({ lenders: { ...flow.get().lenders, [SYF]: lender(SYF, 'Synchrony', { creditType: 'revolving_credit' }) } });
    answer(SYF, decision(SYF, 'approved', { approvedAmountCents: 100_000, existingAccount: true }));
    renderAt('existingAccount', <ExistingAccountPage />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Ya tiene una cuenta' })).toBeTruthy();
    expect(
      screen.getByText(
        'Tiene $1,000.00 de crédito disponible y su tratamiento cuesta $4,500.00. Puede pedirle a Synchrony un límite de crédito más alto, ' +
          'o usar ahora lo que tiene disponible y pagar el resto en el consultorio dental de otra forma.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Pedir un límite de crédito más alto' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'No, gracias. Terminar' })).toBeTruthy();
  });

  it('an expired offer gives its date in Spanish', async () => {
    answer(SYF, decision(SYF, 'approved', { expiresAt: '2026-03-03T12:00:00Z' }));
    renderAt('expired', <ExpiredPage />);
    expect(await screen.findByText('La oferta de Synchrony venció el 3 de marzo de 2026, así que ya no se puede aceptar.')).toBeTruthy();
  });

  it('a pending screen says what the lender waits for, keeping the lender’s own description', async () => {
    answer(
      SYF,
      decision(SYF, 'pending', {
        lenderApplicationId: 'SYF-1',
        stipulations: [{ id: 'S1', type: 'identity_verification', status: 'pending', description: 'A copy of your photo ID.' }],
      }),
    );
    renderAt('pending', <PendingPage />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Su solicitud está en revisión' })).toBeTruthy();
    expect(screen.getByRole('listitem').textContent).toBe(
      'A copy of your photo ID. Pendiente de usted. Synchrony podría llamarle o escribirle para confirmar su identidad. Tenga a mano una identificación con foto.',
    );
    expect(screen.getByText('Si llama a Synchrony, dé este número de referencia:', { exact: false }).textContent).toBe(
      'Si llama a Synchrony, dé este número de referencia: SYF-1',
    );
    expect(screen.getByRole('button', { name: 'Consultar de nuevo' })).toBeTruthy();
  });

  it('the notice before the next lender is in Spanish', () => {
    expect(switchNotice([decision(SYF, 'nooffer')], FORTIVA)).toBe(
      'Synchrony no pudo hacerle una oferta. Todavía puede consultar sus opciones con Fortiva. Sus datos ya están completos.',
    );
  });
});

describe('credit-limit change in Spanish', () => {
  it('a higher limit that covers part of the treatment: amounts in US dollars, the rest paid at the practice', async () => {
    flow.response(SYF, {
      creditLimitChange: {
        providerKey: SYF,
        responseCode: 'approved',
        creditLimitCents: 300_000,
        availableCreditCents: 250_000,
        purchaseAmountCents: 450_000,
        coversPurchase: false,
      },
    });
    renderAt('credit_limit_change/result', <CreditLimitResultPage />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Su límite de crédito es más alto' })).toBeTruthy();
    expect(screen.getByText('Synchrony aumentó su límite de crédito a')).toBeTruthy();
    expect(screen.getByText('$3,000.00')).toBeTruthy();
    expect(screen.getByText('Ahora tiene $2,500.00 disponibles. Eso cubre $2,500.00 de su tratamiento de $4,500.00.')).toBeTruthy();
    expect(screen.getByText('Puede pagar los $2,000.00 restantes en el consultorio dental de otra forma.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Ver planes de pago por $2,500.00' })).toBeTruthy();
  });

  it('checks the amounts in Spanish', () => {
    const terms = { creditLimitCents: 300_000, maxLimitCents: 800_000 };
    expect(limitProblem('', terms, 'Synchrony')).toBe('Escriba el límite de crédito que desea.');
    expect(limitProblem('9000', terms, 'Synchrony')).toBe(
      'Synchrony puede aumentar este límite hasta $8,000.00 como máximo. Escriba esa cantidad o una menor.',
    );
    expect(incomeProblem('10000000')).toBe('Escriba una cantidad de hasta $9,999,999.00.');
  });
});
