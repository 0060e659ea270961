import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { json } from '@/test/fetch';
import type { OfficeApplicationDetail } from './api/applications';
import { OfficeApplicationPage } from './ApplicationPage';
import { forgetOfficeSession } from './auth';
import { row, session, signedOut401, stubOffice } from './testing';
import { dateTimeOf } from './words';

const detail: OfficeApplicationDetail = {
  ...row({
    id: 'app-7',
    status: 'signed',
    lenders: [
      {
        providerKey: 'synchrony',
        lenderName: 'Synchrony',
        status: 'signed',
        responseCode: 'approved',
        approvedAmountCents: 500_000,
        updatedAt: '2030-01-02T15:20:00Z',
      },
    ],
    approvedAmountCents: 500_000,
    plan: {
      providerKey: 'synchrony',
      lenderName: 'Synchrony',
      typeId: 'fixed_rate',
      monthlyAmountCents: 26_667,
      paymentCount: 12,
      finalPaymentCents: 26_663,
      totalOfPaymentsCents: 320_000,
      downPaymentCents: 0,
      durationMonths: 12,
      apr: 0,
      promoApr: 0,
      amountFinancedCents: 320_000,
    },
    signed: true,
  }),
  events: [
    { type: 'flow.started', at: '2030-01-02T15:04:00Z' },
    { type: 'decision.recorded', providerKey: 'synchrony', lenderName: 'Synchrony', at: '2030-01-02T15:10:00Z' },
    { type: 'plan.selected', providerKey: 'synchrony', lenderName: 'Synchrony', at: '2030-01-02T15:12:00Z' },
    { type: 'esign.signed', providerKey: 'synchrony', lenderName: 'Synchrony', at: '2030-01-02T15:20:00Z' },
    { type: 'lender.mystery', at: '2030-01-02T15:21:00Z' },
  ],
  moneyLine: [],
};

function open(path = '/office/applications/app-7', state?: unknown) {
  const router = createMemoryRouter(
    [
      { path: '/office', element: <h1>The list</h1> },
      { path: '/office/applications/:id', Component: OfficeApplicationPage },
    ],
    { initialEntries: [{ pathname: path, state }] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

afterEach(() => {
  vi.unstubAllGlobals();
  forgetOfficeSession();
});

describe('an application’s details', () => {
  it('shows the facts, each lender’s answer and the history in words', async () => {
    const sent = stubOffice({ 'GET /office/session': [json(session)], 'GET /office/applications/app-7': [json(detail)] });
    const router = open('/office/applications/app-7', { listSearch: '?status=signed' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Ann Approve' })).toBeTruthy();
    expect(sent.at(-1)!.path).toBe('/office/applications/app-7');
    const facts = Object.fromEntries(
      [...document.querySelectorAll('dt')].map((dt) => [dt.textContent, (dt.nextElementSibling as HTMLElement).textContent]),
    );
    expect(facts).toMatchObject({
      Status: 'Signed',
      Started: dateTimeOf('2030-01-02T15:04:00Z'),
      Where: 'Here in the office',
      'Treatment amount': '$3,200.00',
      Approved: '$5,000.00',
      Plan: 'Synchrony: 11 × $266.67 + $266.63 final, 0% APR, financing $3,200.00',
      Signed: 'Yes',
      Completed: 'No',
      Finished: 'Not yet',
    });
    expect(screen.getByText(/^Synchrony$/).closest('li')!.textContent).toContain('Synchrony: Approved, for $5,000.00');

    const history = screen.getByRole('heading', { name: 'History' }).nextElementSibling as HTMLElement;
    expect(
      within(history)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      `${dateTimeOf('2030-01-02T15:04:00Z')} Opened the link`,
      `${dateTimeOf('2030-01-02T15:10:00Z')} Synchrony answered`,
      `${dateTimeOf('2030-01-02T15:12:00Z')} Chose a plan (Synchrony)`,
      `${dateTimeOf('2030-01-02T15:20:00Z')} Signed (Synchrony)`,
      `${dateTimeOf('2030-01-02T15:21:00Z')} lender.mystery`,
    ]);

    await userEvent.click(screen.getByRole('link', { name: 'Back to the list' }));
    expect(router.state.location.pathname + router.state.location.search).toBe('/office?status=signed');
  });

  it('says whether the case is in Open Dental, and retries a post that waits', async () => {
    const waiting = {
      ...detail,
      records: { state: 'waiting' as const, kind: 'payment' as const, amountCents: 320_000, posted: 0, error: 'Open Dental did not answer.' },
    };
    const posted = { ...detail, records: { state: 'posted' as const, kind: 'payment' as const, amountCents: 320_000, posted: 1 } };
    const sent = stubOffice({
      'GET /office/session': [json(session)],
      'GET /office/applications/app-7': [json(waiting), json(posted)],
      'POST /office/applications/app-7/records/retry': [new Response(null, { status: 204 })],
    });
    open();
    expect(await screen.findByText('Payment not yet in Open Dental: Open Dental did not answer.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Retry posting to Open Dental' }));
    expect(await screen.findByText('Payment posted to Open Dental')).toBeTruthy();
    expect(sent.find((c) => c.method === 'POST')!.csrf).toBe('csrf-1');
    expect(screen.queryByRole('button', { name: 'Retry posting to Open Dental' })).toBeNull();
  });

  it('says there is no such application at the office for a 404', async () => {
    stubOffice({ 'GET /office/session': [json(session)] });
    open('/office/applications/someone-elses');
    expect(await screen.findByRole('heading', { level: 1, name: 'Application not found' })).toBeTruthy();
    expect(screen.getByText('There is no such application at your office.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the list' }).getAttribute('href')).toBe('/office');
  });

  it('asks a signed-out visitor to sign in, then shows the application', async () => {
    stubOffice({
      'GET /office/session': [signedOut401()],
      'POST /office/session': [json(session)],
      'GET /office/applications/app-7': [json(detail)],
    });
    open();
    await userEvent.type(await screen.findByLabelText('Email'), 'desk@brightsmiles.example');
    await userEvent.type(screen.getByLabelText('Password'), 'a long office password');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Ann Approve' })).toBeTruthy();
  });

  it('goes back to the sign-in form when the session ended meanwhile', async () => {
    stubOffice({ 'GET /office/session': [json(session)], 'GET /office/applications/app-7': [signedOut401()] });
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Office sign-in' })).toBeTruthy();
    expect((await screen.findByRole('alert')).textContent).toBe('You are signed out. Please sign in again.');
  });
});
