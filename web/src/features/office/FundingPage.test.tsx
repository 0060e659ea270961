import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { json } from '@/test/fetch';
import type { OfficeFunding, OfficeFundedCase } from './api/funding';
import { forgetOfficeSession } from './auth';
import { OfficeFundingPage } from './FundingPage';
import { rateWords } from './money';
import { session, stubOffice } from './testing';

function open() {
  const router = createMemoryRouter([{ path: '/office/funding', Component: OfficeFundingPage }], { initialEntries: ['/office/funding'] });
  render(<RouterProvider router={router} />);
}

const fundedCase = (over: Partial<OfficeFundedCase>): OfficeFundedCase => ({
  applicationId: 'app-1',
  reference: '5193-5F4D',
  firstName: 'Maria',
  lastName: 'Approve',
  providerKey: 'synchrony_standard',
  lenderName: 'Synchrony',
  grossCents: 320_000,
  feeCents: 16_960,
  feeRateBp: 530,
  netCents: 303_040,
  fundingRef: 'SYN-F-1',
  ...over,
});

const totals = (over = {}) => ({ deposits: 0, cases: 0, grossCents: 0, feeCents: 0, netCents: 0, ...over });

const funding: OfficeFunding = {
  from: '2030-01-02',
  to: '2030-01-02',
  period: 'day',
  timeZone: 'UTC',
  deposits: [
    {
      reference: 'SYN-D-20300101',
      providerKey: 'synchrony_standard',
      lenderName: 'Synchrony',
      on: '2030-01-02T16:00:00Z',
      sent: true,
      grossCents: 500_000,
      feeCents: 26_500,
      netCents: 473_500,
      cases: [
        fundedCase({}),
        fundedCase({ applicationId: 'app-2', firstName: 'Ana', lastName: 'Ruiz', grossCents: 180_000, feeCents: 9_540, netCents: 170_460 }),
      ],
    },
  ],
  held: [fundedCase({ applicationId: 'app-3', firstName: 'Lee', lastName: 'Held', heldOn: '2030-01-02T10:00:00Z' })],
  changes: [
    {
      ...fundedCase({ applicationId: 'app-5', lastName: 'Refund' }),
      kind: 'refunded',
      amountCents: 25_000,
      feeReturnedCents: 1_325,
      returnedCents: 23_675,
      changeRef: 'SYN-R-1',
      on: '2030-01-02T11:00:00Z',
    },
  ],
  sent: totals({ deposits: 1, cases: 2, grossCents: 500_000, feeCents: 26_500, netCents: 473_500 }),
  expected: totals(),
  alerts: [{ ...fundedCase({ applicationId: 'app-4', lastName: 'Late' }), kind: 'late_funding', since: '2030-01-01T12:00:00Z' }],
};

afterEach(() => {
  vi.unstubAllGlobals();
  forgetOfficeSession();
});

describe('the funding screen', () => {
  it('shows each deposit with its cases and sums, the held cases and what to look at, with the CSV of the same period', async () => {
    const sent = stubOffice({
      'GET /office/session': [json(session)],
      'GET /office/funding': [json(funding), json({ ...funding, period: 'month', from: '2030-01-01', to: '2030-01-31' })],
    });
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Funding' })).toBeTruthy();
    const deposit = await screen.findByRole('table', { name: /Synchrony, deposited .*: deposit SYN-D-20300101, \$4,735\.00/ });
    const rows = within(deposit)
      .getAllByRole('row')
      .slice(1)
      .map((r) => r.textContent);
    expect(rows).toEqual([
      'Maria Approve5193-5F4D$3,200.00$169.60 (5.30%)$3,030.40',
      'Ana Ruiz5193-5F4D$1,800.00$95.40 (5.30%)$1,704.60',
      'Deposit2 cases$5,000.00$265.00$4,735.00',
    ]);
    expect(screen.getByText(/\$4,735\.00 net/).textContent).toContain('1 deposit, 2 cases; $5,000.00 gross less $265.00 in fees');
    expect(within(screen.getByRole('table', { name: 'Cases a lender holds back' })).getByRole('link', { name: 'Lee Held' })).toBeTruthy();
    const refund = within(screen.getByRole('table', { name: 'Cases canceled or refunded with their lender' })).getAllByRole('row')[1]!;
    expect(refund.textContent).toContain('Refunded $250.00: the practice gives back $236.75 ($13.25 of fee returned)');
    expect(refund.textContent).toContain('SYN-R-1');
    const alerts = screen.getByRole('region', { name: 'To look at' });
    expect(alerts.textContent).toContain('Maria Late (5193-5F4D, Synchrony): Not funded yet: later than the lender said');
    const csv = screen.getByRole('link', { name: 'Download CSV' });
    expect(csv.getAttribute('href')).toMatch(/\/office\/funding\.csv\?day=\d{4}-\d{2}-\d{2}&tz=.+&period=day$/);

    fireEvent.change(screen.getByLabelText('Period'), { target: { value: 'month' } });
    await waitFor(() =>
      expect(
        sent
          .filter((s) => s.path === '/office/funding')
          .at(-1)!
          .query.get('period'),
      ).toBe('month'),
    );
    expect(await screen.findByRole('heading', { level: 2, name: /to/ })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toContain('period=month');
  });

  it('says when a day has no deposits, and writes fee rates as percents', async () => {
    stubOffice({
      'GET /office/session': [json(session)],
      'GET /office/funding': [json({ ...funding, deposits: [], held: [], changes: [], alerts: [], sent: totals() })],
    });
    open();
    expect(await screen.findByText(/No deposits on/)).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'To look at' })).toBeNull();
    expect(rateWords(250)).toBe('2.50%');
    expect(rateWords(1520)).toBe('15.20%');
  });
});
