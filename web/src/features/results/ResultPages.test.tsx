import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { configureApi } from '@/lib/api/client';
import type { Decision, Session } from '@/lib/api/types';
import { flow } from '@/stores/flow';
import { lender, withCatalogue } from '@/test/catalogue';
import { json, routes as serve, type Call } from '@/test/fetch';
import { decision } from '@/test/fixtures';
import { DeclinedPage, ExpiredPage, PositiveResultPage, TruePendingPage } from './ResultPages';

/*
 * The screens of the lender overrides (lib/decision.ts, LENDER_ROUTING):
 * LendingClub still reviewing, an expired offer, and an approval waiting
 * only for the patient's email confirmation.
 */

const LC = 'lendingclub_standard';
const DECLINE_WORDS = /declin|couldn’t approve|wasn’t approved|not approved|letter explaining/i;

let calls: Call[];

beforeEach(() => {
  flow.reset();
  configureApi({ getSessionId: () => 's1', navigate: vi.fn(), onValidation: vi.fn(), currentPath: () => '/p' });
  flow.set({ session: { webSessionId: 's1' } as Session, providerKey: LC, primaryLenderKey: LC, applyMode: 'prequalify' });
  withCatalogue([lender(LC, 'LendingClub', { kind: 'installment_loan', creditType: 'loan' })]);
  calls = serve({ '/flow/finish/pending': [json({})], '/flow/finish/completed': [json({})] });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function renderAt(rest: string, page: React.ReactElement, answer?: Decision) {
  if (answer) flow.response(LC, { preAuth: { ...answer, operation: 'prequalify' } });
  const router = createMemoryRouter(
    [
      { path: '/providers/:providerKey/:page', element: page },
      { path: '/finish/:type', element: <h1>Finished</h1> },
    ],
    { initialEntries: [`/providers/${LC}/${rest}`] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

describe('TruePendingPage', () => {
  const pending = decision(LC, 'pending', {
    lenderApplicationId: 'LC-123',
    pendingReasons: ['identity_verification'],
    stipulations: [{ id: 'S1', type: 'identity_verification', status: 'pending', description: 'A copy of your photo ID.' }],
  });

  it('says the lender is still reviewing, what it waits for and what happens next, without a word of decline', async () => {
    renderAt('true-pending', <TruePendingPage />, pending);
    expect(await screen.findByRole('heading', { level: 1, name: 'LendingClub is still reviewing your application' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'What happens next' })).toBeTruthy();
    expect(screen.getByRole('listitem').textContent).toBe(
      'A copy of your photo ID. Waiting for you. LendingClub may call or write to you to confirm who you are. Have a photo ID ready.',
    );
    expect(screen.getByText('LendingClub will contact you by email or mail once they have decided.')).toBeTruthy();
    expect(screen.getByText('LC-123')).toBeTruthy();
    expect(screen.getByText('You don’t need to apply again.')).toBeTruthy();
    expect(document.body.textContent).not.toMatch(DECLINE_WORDS);
  });

  it('lists nothing awaited when the lender named nothing, and Finish ends the session as pending', async () => {
    const router = renderAt('true-pending', <TruePendingPage />, decision(LC, 'pending'));
    expect(await screen.findByRole('heading', { level: 1, name: 'LendingClub is still reviewing your application' })).toBeTruthy();
    expect(screen.queryByText(/is waiting for/)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Finish' }));
    expect(await screen.findByRole('heading', { name: 'Finished' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/finish/pending');
    expect(calls.map((c) => c.path)).toEqual(['/flow/finish/pending']);
  });
});

describe('ExpiredPage', () => {
  it('says the offer ended, on which day, and that it can no longer be accepted', async () => {
    renderAt('expired', <ExpiredPage />, decision(LC, 'prequalified', { approvedAmountCents: 500_000, expiresAt: '2026-03-14T12:00:00Z' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'This offer has expired' })).toBeTruthy();
    expect(screen.getByText('The offer from LendingClub ended on March 14, 2026, so it can no longer be accepted.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Finish' })).toBeTruthy();
    expect(document.body.textContent).not.toMatch(DECLINE_WORDS);
  });

  it('without a date it still says the offer ended', async () => {
    renderAt('expired', <ExpiredPage />);
    expect(await screen.findByText('The offer from LendingClub has ended, so it can no longer be accepted.')).toBeTruthy();
  });
});

describe('PositiveResultPage after a pending answer waiting for the email', () => {
  it('says the one step left and shows no $0.00 amount', async () => {
    renderAt('approved', <PositiveResultPage />, decision(LC, 'pending', { pendingReasons: ['verify_email'] }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Good news!' })).toBeTruthy();
    expect(screen.getByText('LendingClub approved you')).toBeTruthy();
    expect(screen.getByText('One step is left: confirm your email address with the link LendingClub sent you.')).toBeTruthy();
    expect(screen.queryByText('$0.00')).toBeNull();
    // No plans to choose yet: no button to an empty list, the session ends as pending.
    expect(screen.queryByRole('button', { name: 'See payment options' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Finish' })).toBeTruthy();
    expect(document.body.textContent).not.toMatch(DECLINE_WORDS);
  });

  it('shows the amount when the lender gave one', async () => {
    renderAt('approved', <PositiveResultPage />, decision(LC, 'pending', { pendingReasons: ['verify_email'], approvedAmountCents: 700_000 }));
    expect(await screen.findByText('LendingClub approved you for up to')).toBeTruthy();
    expect(screen.getByText('$7,000.00')).toBeTruthy();
  });
});

describe('DeclinedPage with the words of the lender that declined last', () => {
  const AFF = 'aff_standard';
  const AFF_WORDS = 'AFF could not offer you a treatment loan this time. Within 30 days AFF will send you a letter.';

  function declinedAt(order: string[]) {
    withCatalogue([
      lender(LC, 'LendingClub', { kind: 'installment_loan', creditType: 'loan' }),
      lender(AFF, 'AFF', { kind: 'installment_loan', creditType: 'loan', declinedMessage: AFF_WORDS }),
    ]);
    for (const k of order) flow.response(k, { preAuth: { ...decision(k, 'declined'), operation: 'prequalify' } });
    flow.set({ declinedBy: order, providerKey: order.at(-1)! });
    const router = createMemoryRouter([{ path: '/providers/:providerKey/declined', element: <DeclinedPage /> }], {
      initialEntries: [`/providers/${order.at(-1)}/declined`],
    });
    render(<RouterProvider router={router} />);
  }

  it('AFF declined last: its own words, and every lender of the session still listed', () => {
    declinedAt([LC, AFF]);
    expect(screen.getByText(AFF_WORDS)).toBeTruthy();
    expect(screen.getByText(/LendingClub and AFF/)).toBeTruthy();
  });

  it('another lender declined last: the general screen only', () => {
    declinedAt([AFF, LC]);
    expect(screen.queryByText(AFF_WORDS)).toBeNull();
    expect(screen.getByText(/AFF and LendingClub/)).toBeTruthy();
  });
});
