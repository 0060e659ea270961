import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { json } from '@/test/fetch';
import type { OfficeApplicationDetail, OfficeMoney, OfficeMoneyEntry } from './api/applications';
import { OfficeApplicationPage } from './ApplicationPage';
import { forgetOfficeSession } from './auth';
import { changeKind, dayOf, entryWords, moneyWords, rateWords } from './money';
import { manager, row, session, stubOffice } from './testing';
import { dateTimeOf } from './words';

const money = (over: Partial<OfficeMoney>): OfficeMoney => ({
  state: 'completed',
  providerKey: 'synchrony_standard',
  lenderName: 'Synchrony',
  amountCents: 320_000,
  ...over,
});

const entry = (over: Partial<OfficeMoneyEntry>): OfficeMoneyEntry => ({
  providerKey: 'synchrony_standard',
  lenderName: 'Synchrony',
  kind: 'approved',
  amountCents: 500_000,
  reference: 'ref',
  on: '2030-01-02T15:10:00Z',
  recordedAt: '2030-01-02T15:10:00Z',
  ...over,
});

const funded = { feeCents: 16_960, feeRateBp: 530, netCents: 303_040, depositRef: 'SYN-D-20300104' };

afterEach(() => {
  vi.unstubAllGlobals();
  forgetOfficeSession();
});

describe('a case’s money in words', () => {
  it('says where the money stands on the row, in each state', () => {
    expect(moneyWords(money({}))).toBe('Waiting for Synchrony to fund $3,200.00');
    expect(moneyWords(money({ state: 'held' }))).toBe('Held for Synchrony’s review');
    expect(moneyWords(money({ state: 'funded', ...funded, depositOn: '2030-01-04T12:00:00Z' }))).toMatch(
      /^Funded: \$3,030\.40 net of \$169\.60 fee \(5\.30%\) · deposit expected \w+, Jan 4$/,
    );
    expect(moneyWords(money({ state: 'deposited', ...funded, refundedCents: 25_000 }))).toBe(
      'Deposited $3,030.40 · SYN-D-20300104 · $250.00 refunded',
    );
    // A deposit without its reference says no empty one.
    expect(moneyWords(money({ state: 'deposited', ...funded, depositRef: undefined }))).toBe('Deposited $3,030.40');
    expect(moneyWords(money({ state: 'voided' }))).toBe('Canceled with Synchrony: nothing will be paid');
    expect(moneyWords(money({ state: 'refunded', refundedCents: 320_000 }))).toBe('Refunded in full ($3,200.00)');
  });

  it('says a fee rate in basis points as a percent with two decimals', () => {
    expect(rateWords(250)).toBe('2.50%');
    expect(rateWords(530)).toBe('5.30%');
    expect(rateWords(1)).toBe('0.01%');
    expect(rateWords(1_000)).toBe('10.00%');
  });

  it('says each fact of the line, and which change the case allows', () => {
    expect(entryWords(entry({}))).toBe('Approved for $5,000.00');
    expect(entryWords(entry({ kind: 'funded', amountCents: 320_000, ...funded, depositOn: '2030-01-04T12:00:00Z' }))).toMatch(
      /^Funded \$3,200\.00 gross, \$169\.60 fee \(5\.30%\), \$3,030\.40 net; deposit SYN-D-20300104 expected/,
    );
    expect(entryWords(entry({ kind: 'refunded', amountCents: 25_000, feeCents: 1_325, netCents: 23_675 }))).toBe(
      'Refunded $250.00; the practice returns $236.75 ($13.25 of fee given back)',
    );
    expect(entryWords(entry({ kind: 'funded', amountCents: 320_000, feeCents: 8_000, feeRateBp: 250, netCents: 312_000 }))).toBe(
      'Funded $3,200.00 gross, $80.00 fee (2.50%), $3,120.00 net',
    );
    expect(changeKind(undefined)).toBeNull();
    expect(changeKind(money({ state: 'held' }))).toBe('void');
    expect(changeKind(money({ state: 'deposited', ...funded, refundedCents: 100 }))).toBe('refund');
    expect(changeKind(money({ state: 'refunded', refundedCents: 320_000 }))).toBeNull();
    expect(changeKind(money({ state: 'voided' }))).toBeNull();
  });
});

const detail = (m: OfficeMoney, line: OfficeMoneyEntry[]): OfficeApplicationDetail => ({
  ...row({ id: 'app-9', status: 'completed', completed: true, signed: true, money: m }),
  events: [],
  moneyLine: line,
});

function open() {
  const router = createMemoryRouter([{ path: '/office/applications/:id', Component: OfficeApplicationPage }], {
    initialEntries: ['/office/applications/app-9'],
  });
  render(<RouterProvider router={router} />);
}

describe('the case’s money on its page', () => {
  const line = [
    entry({}),
    entry({ kind: 'signed', amountCents: 320_000 }),
    entry({ kind: 'completed', amountCents: 320_000 }),
    entry({ kind: 'funded', amountCents: 320_000, ...funded }),
    entry({ kind: 'deposited', amountCents: 320_000, ...funded, reference: 'SYN-D-20300104' }),
  ];
  const deposited = money({ state: 'deposited', ...funded });

  it('lists the money line, and the front desk cannot change the case', async () => {
    stubOffice({ 'GET /office/session': [json(session)], 'GET /office/applications/app-9': [json(detail(deposited, line))] });
    open();
    const table = await screen.findByRole('table', { name: 'The case’s money, in the order it happened' });
    const whats = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) => r.children[2]!.textContent);
    expect(whats).toEqual([
      'Approved for $5,000.00',
      'Signed for $3,200.00',
      'Completed: $3,200.00 to be funded',
      'Funded $3,200.00 gross, $169.60 fee (5.30%), $3,030.40 net',
      'Deposited $3,030.40 in deposit SYN-D-20300104',
    ]);
    expect(screen.queryByRole('heading', { name: 'Refund' })).toBeNull();
  });

  it('shows the whole line from approval to deposit: when, lender, what and reference of each fact', async () => {
    const fees = { feeCents: 8_000, feeRateBp: 250, netCents: 312_000, depositRef: 'SYN-D-20300106', depositOn: '2030-01-06T15:00:00Z' };
    const full = [
      entry({ reference: 'dec-1', recordedAt: '2030-01-02T15:10:00Z' }),
      entry({ kind: 'signed', amountCents: 320_000, reference: 'sig-1', recordedAt: '2030-01-02T15:20:00Z' }),
      entry({ kind: 'completed', amountCents: 320_000, reference: 'cmp-1', recordedAt: '2030-01-02T15:21:00Z' }),
      entry({ kind: 'held', amountCents: 320_000, reference: 'held', on: '2030-01-07T15:00:00Z', recordedAt: '2030-01-03T09:00:00Z' }),
      entry({ kind: 'funded', amountCents: 320_000, ...fees, reference: 'SYN-F-7', on: '2030-01-05T15:00:00Z', recordedAt: '2030-01-05T15:01:00Z' }),
      entry({
        kind: 'deposited',
        amountCents: 320_000,
        ...fees,
        reference: 'SYN-D-20300106',
        on: '2030-01-06T15:00:00Z',
        recordedAt: '2030-01-06T15:01:00Z',
      }),
    ];
    stubOffice({
      'GET /office/session': [json(session)],
      'GET /office/applications/app-9': [json(detail(money({ state: 'deposited', ...fees }), full))],
    });
    open();
    expect(await screen.findByRole('heading', { level: 2, name: 'Money' })).toBeTruthy();
    const table = screen.getByRole('table', { name: 'The case’s money, in the order it happened' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['When', 'Lender', 'What', 'Reference']);
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) => Array.from(r.children, (c) => c.textContent));
    expect(rows).toEqual([
      [dateTimeOf('2030-01-02T15:10:00Z'), 'Synchrony', 'Approved for $5,000.00', 'dec-1'],
      [dateTimeOf('2030-01-02T15:20:00Z'), 'Synchrony', 'Signed for $3,200.00', 'sig-1'],
      [dateTimeOf('2030-01-02T15:21:00Z'), 'Synchrony', 'Completed: $3,200.00 to be funded', 'cmp-1'],
      // Dated when it was learnt: a held fact's own date is when the lender expects to fund.
      [dateTimeOf('2030-01-03T09:00:00Z'), 'Synchrony', 'Held for the lender’s review', 'held'],
      [
        dateTimeOf('2030-01-05T15:01:00Z'),
        'Synchrony',
        `Funded $3,200.00 gross, $80.00 fee (2.50%), $3,120.00 net; deposit SYN-D-20300106 expected ${dayOf('2030-01-06T15:00:00Z')}`,
        'SYN-F-7',
      ],
      [dateTimeOf('2030-01-06T15:01:00Z'), 'Synchrony', 'Deposited $3,120.00 in deposit SYN-D-20300106', 'SYN-D-20300106'],
    ]);
    expect(within(table).getAllByRole('row')[1]!.querySelector('time')!.getAttribute('dateTime')).toBe('2030-01-02T15:10:00Z');
    // The facts above the line say where it stands now.
    expect(screen.getByText('Deposited $3,120.00 · SYN-D-20300106')).toBeTruthy();
  });

  it('says so when nothing has moved yet', async () => {
    stubOffice({
      'GET /office/session': [json(session)],
      'GET /office/applications/app-9': [json({ ...row({ id: 'app-9', status: 'approved' }), events: [], moneyLine: [] })],
    });
    open();
    expect(await screen.findByText('No money movements yet.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('lets a manager refund part of it: the reason, what the lender will be asked, one key however often confirmed', async () => {
    const refunded = entry({ kind: 'refunded', amountCents: 25_000, feeCents: 1_325, netCents: 23_675, reference: 'SYN-R-1' });
    const sent = stubOffice({
      'GET /office/session': [json(manager)],
      'GET /office/applications/app-9': [json(detail(deposited, line)), json(detail({ ...deposited, refundedCents: 25_000 }, [...line, refunded]))],
      'POST /office/applications/app-9/changes/preview': [
        json({
          kind: 'refund',
          providerKey: 'synchrony_standard',
          lenderName: 'Synchrony',
          amountCents: 25_000,
          financedCents: 320_000,
          refundedCents: 0,
          leftCents: 295_000,
        }),
      ],
      'POST /office/applications/app-9/changes': [
        json({
          kind: 'refund',
          providerKey: 'synchrony_standard',
          lenderName: 'Synchrony',
          amountCents: 25_000,
          financedCents: 320_000,
          refundedCents: 0,
          leftCents: 295_000,
          status: 'done',
          reference: 'SYN-R-1',
        }),
      ],
    });
    open();
    expect(await screen.findByRole('heading', { name: 'Refund' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Review' }));
    expect(await screen.findByText('Please give the reason, in 3 to 500 characters.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/^Amount to refund/), { target: { value: '250' } });
    fireEvent.change(screen.getByLabelText(/^Reason/), { target: { value: 'One filling was not needed.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Review' }));
    expect(await screen.findByText('Synchrony will be asked to refund $250.00 of the $3,200.00 financed; $2,950.00 will be left.')).toBeTruthy();
    const yes = screen.getByRole('button', { name: 'Yes, refund $250.00' });
    // Pressed twice before the answer: whatever reaches the server carries the one key of this confirmation.
    fireEvent.click(yes);
    fireEvent.click(yes);
    expect(await screen.findByText(/Done\. .*The lender’s reference: SYN-R-1\./)).toBeTruthy();
    const changes = sent.filter((s) => s.method === 'POST' && s.path === '/office/applications/app-9/changes');
    expect(changes.length).toBeGreaterThanOrEqual(1);
    expect(new Set(changes.map((c) => c.key)).size).toBe(1);
    expect(JSON.parse(changes[0]!.body!)).toEqual({ kind: 'refund', reason: 'One filling was not needed.', amountCents: 25_000 });
    expect(changes[0]!.csrf).toBe(manager.csrfToken);
    expect(changes[0]!.key).toMatch(/^[0-9a-f]{32}$/);
    await waitFor(() => expect(screen.getByText('Refunded $250.00; the practice returns $236.75 ($13.25 of fee given back)')).toBeTruthy());
  });
});
