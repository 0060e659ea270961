import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { json } from '@/test/fetch';
import type { OfficeApplicationDetail } from './api/applications';
import { OfficeApplicationPage } from './ApplicationPage';
import { planLines } from './AmountChange';
import { forgetOfficeSession } from './auth';
import { manager, row, session, stubOffice } from './testing';

const approved: OfficeApplicationDetail = {
  ...row({ id: 'app-5', status: 'approved', purchaseAmountCents: 450_000, approvedAmountCents: 500_000 }),
  events: [],
  moneyLine: [],
};

function open() {
  const router = createMemoryRouter([{ path: '/office/applications/:id', Component: OfficeApplicationPage }], {
    initialEntries: ['/office/applications/app-5'],
  });
  render(<RouterProvider router={router} />);
}

afterEach(() => {
  vi.unstubAllGlobals();
  forgetOfficeSession();
});

describe('changing the treatment amount before the patient signs', () => {
  it('says lender by lender what happens: the accepted offer let go, the others chosen again, the rest up front', () => {
    expect(
      planLines({
        fromCents: 450_000,
        toCents: 520_000,
        lenders: [
          { providerKey: 'synchrony_standard', lenderName: 'Synchrony', approvedCents: 500_000, accepted: true },
          { providerKey: 'alphaeon_standard', lenderName: 'Alphaeon', approvedCents: 600_000, accepted: false },
        ],
      }),
    ).toEqual([
      'Synchrony will be asked to let go of the offer the patient accepted; the patient chooses a plan again. It approved $5,000.00: the patient would pay the rest up front.',
      'Alphaeon: the approval stands; the patient chooses a plan for the new amount.',
    ]);
    expect(planLines({ fromCents: 1, toCents: 2, lenders: [] })).toEqual([
      'No lender has approved the patient yet: the new amount is what they will apply for.',
    ]);
  });

  it('is not offered to the front desk, nor once the patient signed', async () => {
    stubOffice({ 'GET /office/session': [json(session)], 'GET /office/applications/app-5': [json(approved)] });
    open();
    expect(await screen.findByRole('heading', { level: 2, name: 'Lenders' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Change the treatment amount' })).toBeNull();
    vi.unstubAllGlobals();
    forgetOfficeSession();
    document.body.innerHTML = '';
    stubOffice({ 'GET /office/session': [json(manager)], 'GET /office/applications/app-5': [json({ ...approved, signed: true })] });
    open();
    expect(await screen.findByRole('heading', { level: 2, name: 'Lenders' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Change the treatment amount' })).toBeNull();
  });

  it('lets a manager change it: the amount and reason, what will happen, one key however often confirmed', async () => {
    const plan = {
      fromCents: 450_000,
      toCents: 380_000,
      lenders: [{ providerKey: 'synchrony_standard', lenderName: 'Synchrony', approvedCents: 500_000, accepted: true }],
    };
    const sent = stubOffice({
      'GET /office/session': [json(manager)],
      'GET /office/applications/app-5': [json(approved), json({ ...approved, purchaseAmountCents: 380_000 })],
      'POST /office/applications/app-5/amount/preview': [json(plan)],
      'POST /office/applications/app-5/amount': [json({ ...plan, status: 'done', reference: 'SYN-A-1' })],
    });
    open();
    expect(await screen.findByRole('heading', { name: 'Change the treatment amount' })).toBeTruthy();
    fireEvent.click(screen.getAllByRole('button', { name: 'Review' }).at(-1)!);
    expect(await screen.findByText('Enter the new treatment amount, such as 3800.00.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/^New treatment amount/), { target: { value: '3800' } });
    fireEvent.change(screen.getByLabelText(/^Reason/, { selector: '#amount-reason' }), { target: { value: 'One crown less.' } });
    fireEvent.click(screen.getAllByRole('button', { name: 'Review' }).at(-1)!);
    expect(await screen.findByText('The treatment amount changes from $4,500.00 to $3,800.00.')).toBeTruthy();
    expect(screen.getByText(/Synchrony will be asked to let go of the offer the patient accepted/)).toBeTruthy();
    const yes = screen.getByRole('button', { name: 'Yes, change it to $3,800.00' });
    fireEvent.click(yes);
    fireEvent.click(yes);
    expect(await screen.findByText(/Done: the treatment amount is now \$3,800\.00\./)).toBeTruthy();
    const changes = sent.filter((s) => s.method === 'POST' && s.path === '/office/applications/app-5/amount');
    expect(changes.length).toBeGreaterThanOrEqual(1);
    expect(new Set(changes.map((c) => c.key)).size).toBe(1);
    expect(changes[0]!.key).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.parse(changes[0]!.body!)).toEqual({ fromCents: 450_000, amountCents: 380_000, reason: 'One crown less.' });
  });
});
