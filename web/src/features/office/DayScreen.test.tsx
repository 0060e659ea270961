import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { json } from '@/test/fetch';
import { today, toIso } from '@/lib/dates';
import { forgetOfficeSession } from './auth';
import { OfficePage } from './OfficePages';
import { POLL_MS } from './useApplicationsFeed';
import { FakeEventSource, list, row, session, signedOut401, stubOffice, type Sent } from './testing';
import { timeOf, untilOf } from './words';
import { dayOf } from './money';
import type { OfficeApplication, OfficeMoney } from './api/applications';

const TZ = Intl.DateTimeFormat().resolvedOptions().timeZone;

const rows = [
  row({
    id: 'app-2',
    status: 'approved',
    firstName: 'Ann',
    lastName: 'Approve',
    createdAt: '2030-01-02T16:30:00Z',
    lenders: [
      {
        providerKey: 'synchrony',
        lenderName: 'Synchrony',
        status: 'decided',
        responseCode: 'approved',
        approvedAmountCents: 500_000,
        updatedAt: '2030-01-02T16:31:00Z',
      },
      { providerKey: 'fortiva', lenderName: 'Fortiva', status: 'decided', responseCode: 'declined', updatedAt: '2030-01-02T16:32:00Z' },
    ],
    approvedAmountCents: 500_000,
    plan: {
      providerKey: 'synchrony',
      lenderName: 'Synchrony',
      typeId: 'fixed_rate',
      monthlyAmountCents: 12_345,
      paymentCount: 12,
      finalPaymentCents: 12_345,
      totalOfPaymentsCents: 148_140,
      downPaymentCents: 0,
      durationMonths: 12,
      apr: 0,
      promoApr: 0,
      amountFinancedCents: 148_140,
    },
  }),
  row({
    id: 'inv-1',
    kind: 'invite',
    status: 'invited',
    firstName: '',
    lastName: '',
    createdAt: '2030-01-02T16:00:00Z',
    expiresAt: '2030-01-03T16:00:00Z',
  }),
  row({ id: 'app-1', status: 'pending', firstName: 'Pat', lastName: 'Pending', createdAt: '2030-01-02T15:00:00Z' }),
];

function open(path = '/office') {
  const router = createMemoryRouter(
    [
      { path: '/office', Component: OfficePage },
      { path: '/office/applications/:id', element: <h1>Details page</h1> },
    ],
    { initialEntries: [path] },
  );
  const view = render(<RouterProvider router={router} />);
  return { router, view };
}

const listCalls = (sent: Sent[]) => sent.filter((c) => c.method === 'GET' && c.path === '/office/applications');

/** advance moves the fake clock and lets the answers of the calls it set off arrive. */
async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

beforeEach(() => {
  FakeEventSource.all = [];
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  forgetOfficeSession();
});

describe('the day’s list', () => {
  it('shows each row in words, newest first, with details or a way to cancel', async () => {
    const sent = stubOffice({ 'GET /office/session': [json(session)], 'GET /office/applications': [json(list(rows))] });
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Bright Smiles Dental' })).toBeTruthy();
    expect(screen.getByText(/Signed in as/).textContent).toBe('Signed in as desk@brightsmiles.example at Bright Smiles Dental.');
    expect(screen.getByRole('link', { name: 'Invite a patient' }).getAttribute('href')).toBe('/office/invite');

    const table = await screen.findByRole('table');
    expect(table.querySelector('caption')!.textContent).toMatch(/^Applications and invitations of today, /);
    expect(screen.getByRole('region', { name: /^Applications and invitations of today, / })).toBeTruthy();
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual(['Patient', 'Started', 'Status', 'Lenders', 'Approved', 'Plan', 'Actions']);
    const body = within(table).getAllByRole('row').slice(1);
    expect(body.map((r) => within(r).getByRole('rowheader').textContent)).toEqual(['Ann Approve', 'Name not given', 'Pat Pending']);

    const ann = within(body[0]!)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(ann.slice(0, 5)).toEqual([
      timeOf('2030-01-02T16:30:00Z'),
      'Approved',
      'Synchrony: ApprovedFortiva: Declined',
      '$5,000.00',
      '12 × $123.45, 0% APR',
    ]);
    expect(within(body[0]!).getByRole('link', { name: 'Details of Ann Approve’s application' }).getAttribute('href')).toBe(
      '/office/applications/app-2',
    );

    expect(within(body[1]!).getByText('Invited')).toBeTruthy();
    expect(within(body[1]!).getByText(`Link works until ${untilOf('2030-01-03T16:00:00Z')}`)).toBeTruthy();
    expect(within(body[1]!).getByRole('button', { name: 'Cancel this invitation' })).toBeTruthy();
    expect(within(body[1]!).queryByRole('link')).toBeNull();
    expect(within(body[2]!).getByText('Lender still deciding')).toBeTruthy();

    // Without EventSource (the test document has none) the list is fetched, for today in the browser's time zone.
    const q = listCalls(sent)[0]!.query;
    expect(q.get('day')).toBe(toIso(today()));
    expect(q.get('tz')).toBe(TZ);
    expect(q.has('status')).toBe(false);
  });

  it('asks for the chosen day and status, and the CSV link follows them', async () => {
    const sent = stubOffice({
      'GET /office/session': [json(session)],
      'GET /office/applications': [json(list(rows)), json(list([rows[0]!])), json(list([]))],
    });
    const { router } = open();
    await screen.findByRole('table');
    expect(screen.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toBe(
      `/api/v1/office/applications.csv?day=${toIso(today())}&tz=${encodeURIComponent(TZ)}`,
    );
    const status = screen.getByLabelText('Status');
    expect(
      within(status)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([
      'All',
      'Invited',
      'Link expired',
      'Invitation canceled',
      'In progress',
      'Lender still deciding',
      'Approved',
      'Declined',
      'No offer',
      'Offer expired',
      'Signed',
      'Completed',
      'Canceled',
      'Timed out',
    ]);
    await userEvent.selectOptions(status, 'approved');
    await waitFor(() => expect(listCalls(sent).at(-1)!.query.get('status')).toBe('approved'));
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(2));
    expect(screen.getByRole('table').querySelector('caption')!.textContent).toMatch(/: Approved only$/);

    fireEvent.change(screen.getByLabelText('Day'), { target: { value: '2030-01-01' } });
    await waitFor(() => expect(listCalls(sent).at(-1)!.query.get('day')).toBe('2030-01-01'));
    expect(listCalls(sent).at(-1)!.query.get('status')).toBe('approved');
    expect(router.state.location.search).toBe('?day=2030-01-01&status=approved');
    expect(await screen.findByText(/^Nothing with the status “Approved” on Tuesday, January 1, 2030\.$/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toBe(
      `/api/v1/office/applications.csv?day=2030-01-01&tz=${encodeURIComponent(TZ)}&status=approved`,
    );
  });

  it('says so when the day has nothing', async () => {
    stubOffice({ 'GET /office/session': [json(session)], 'GET /office/applications': [json(list([]))] });
    open();
    expect(await screen.findByText(/^No applications or invitations on today, .* yet\.$/)).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('cancels a waiting invitation from its row, after asking', async () => {
    const sent = stubOffice({
      'GET /office/session': [json(session)],
      'GET /office/applications': [json(list(rows)), json(list([rows[0]!, { ...rows[1]!, status: 'invite_canceled' }, rows[2]!]))],
      'DELETE /office/invites/inv-1': [new Response(null, { status: 204 })],
    });
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel this invitation' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Cancel this invitation?' })).getByRole('button', { name: 'Yes, cancel it' }));
    expect(await screen.findByText('The invitation is canceled. The link no longer works.')).toBeTruthy();
    const del = sent.find((c) => c.method === 'DELETE')!;
    expect(del.csrf).toBe('csrf-1');
    // The list is asked again at once, and the row says what became of it.
    expect(await within(screen.getByRole('table')).findByText('Invitation canceled')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cancel this invitation' })).toBeNull();
  });

  it('says whether a case is posted to Open Dental, and retries one that is not', async () => {
    const failed = row({
      ...rows[0]!,
      id: 'app-9',
      firstName: 'Maria',
      lastName: 'Lopez',
      records: { state: 'waiting', kind: 'payment', amountCents: 186_750, posted: 0, error: 'Open Dental refused Chairside’s key.' },
    });
    const posted = { ...failed, records: { state: 'posted' as const, kind: 'payment' as const, amountCents: 186_750, posted: 1 } };
    const sent = stubOffice({
      'GET /office/session': [json(session)],
      'GET /office/applications': [json(list([failed])), json(list([posted]))],
      'POST /office/applications/app-9/records/retry': [new Response(null, { status: 204 })],
    });
    open();
    expect(await screen.findByText('Payment not yet in Open Dental: Open Dental refused Chairside’s key.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Retry posting Maria Lopez’s case to Open Dental' }));
    expect(await screen.findByText('Payment posted to Open Dental')).toBeTruthy();
    expect(sent.find((c) => c.method === 'POST')!.csrf).toBe('csrf-1');
    expect(screen.queryByRole('button', { name: /Retry posting/ })).toBeNull();
  });

  it('sends an invitation again from its row, and offers it only while the link can still reach the patient', async () => {
    const texted = row({
      ...rows[1]!,
      id: 'inv-2',
      firstName: 'Tess',
      lastName: 'Textme',
      messages: [
        { channel: 'sms', to: '(•••) •••-0150', state: 'delivered', sends: 1 },
        { channel: 'email', to: 't•••@example.com', state: 'held', sends: 1 },
      ],
    });
    const stopped = row({
      ...rows[1]!,
      id: 'inv-3',
      firstName: 'Otto',
      lastName: 'Optout',
      messages: [{ channel: 'sms', to: '(•••) •••-0150', state: 'opted_out', sends: 1 }],
    });
    const again = {
      ...texted,
      messages: [
        { ...texted.messages![0]!, state: 'sending' as const, sends: 2 },
        { ...texted.messages![1]!, sends: 2 },
      ],
    };
    const sent = stubOffice({
      'GET /office/session': [json(session)],
      'GET /office/applications': [json(list([texted, stopped])), json(list([again, stopped]))],
      'POST /office/invites/inv-2/resend': [
        json({
          sentTo: [
            { channel: 'sms', to: '(•••) •••-0150' },
            { channel: 'email', to: 't•••@example.com', held: true },
          ],
        }),
      ],
    });
    open();
    expect(await screen.findByText('Email to t•••@example.com: kept back, sent only if the text does not arrive')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send again the invitation for Otto Optout' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Send again the invitation for Tess Textme' }));
    expect(await screen.findByText('The link for Tess Textme is being sent again to (•••) •••-0150 and t•••@example.com.')).toBeTruthy();
    expect(sent.find((c) => c.method === 'POST')!.csrf).toBe('csrf-1');
    expect(await screen.findByText('Text to (•••) •••-0150: sending (sent 2 times)')).toBeTruthy();
  });
});

/** completedRow is a case signed and completed with Synchrony for $3,200.00, its money as the test says. */
const completedRow = (id: string, lastName: string, money: Partial<OfficeMoney>): OfficeApplication =>
  row({
    id,
    status: 'completed',
    firstName: 'Cora',
    lastName,
    signed: true,
    completed: true,
    money: { state: 'completed', providerKey: 'synchrony_standard', lenderName: 'Synchrony', amountCents: 320_000, ...money },
  });

// The brief's figures: $3,200.00 financed, a 2.50% fee of $80.00, $3,120.00 to the practice.
const fundedMoney = { feeCents: 8_000, feeRateBp: 250, netCents: 312_000, fundingRef: 'SYN-F-1', depositRef: 'SYN-D-20300104' };

/** moneyOf is what the row of the patient named says of the money: the words under its plan. */
function moneyOf(name: string): string | null | undefined {
  const r = screen.getByRole('rowheader', { name: new RegExp(`^${name}`) }).closest('tr')!;
  return within(r).getAllByRole('cell')[4]!.querySelector('.office-sub')?.textContent;
}

describe('a completed case’s money on the list', () => {
  it('says where the money stands, in each state, under the plan', async () => {
    const deposit = '2030-01-04T15:00:00Z';
    const money = [
      completedRow('app-1', 'Completed', {}),
      completedRow('app-2', 'Held', { state: 'held' }),
      completedRow('app-3', 'Funded', { state: 'funded', ...fundedMoney, fundedOn: '2030-01-03T15:00:00Z', depositOn: deposit }),
      completedRow('app-4', 'Deposited', { state: 'deposited', ...fundedMoney, fundedOn: '2030-01-03T15:00:00Z', depositOn: deposit }),
      completedRow('app-5', 'Voided', { state: 'voided' }),
      completedRow('app-6', 'Refunded', { state: 'refunded', ...fundedMoney, refundedCents: 320_000 }),
      row({ id: 'app-7', status: 'approved', firstName: 'Ann', lastName: 'Approve' }),
    ];
    stubOffice({ 'GET /office/session': [json(session)], 'GET /office/applications': [json(list(money))] });
    open();
    await screen.findByRole('table');
    expect(moneyOf('Cora Completed')).toBe('Waiting for Synchrony to fund $3,200.00');
    expect(moneyOf('Cora Held')).toBe('Held for Synchrony’s review');
    expect(moneyOf('Cora Funded')).toBe(`Funded: $3,120.00 net of $80.00 fee (2.50%) · deposit expected ${dayOf(deposit)}`);
    expect(moneyOf('Cora Deposited')).toBe('Deposited $3,120.00 · SYN-D-20300104');
    expect(moneyOf('Cora Voided')).toBe('Canceled with Synchrony: nothing will be paid');
    expect(moneyOf('Cora Refunded')).toBe('Refunded in full ($3,200.00)');
    // A case not completed has no money to speak of.
    expect(moneyOf('Ann Approve')).toBeUndefined();
  });

  it('follows the money as the stream tells it: waiting, held, funded, deposited', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    stubOffice({ 'GET /office/session': [json(session)] });
    open();
    await screen.findByText('Loading the list…');
    const es = FakeEventSource.latest();
    const deposit = '2030-01-04T15:00:00Z';
    es.send(list([completedRow('app-1', 'Case', {})]));
    await waitFor(() => expect(moneyOf('Cora Case')).toBe('Waiting for Synchrony to fund $3,200.00'));
    es.send(list([completedRow('app-1', 'Case', { state: 'held' })]));
    await waitFor(() => expect(moneyOf('Cora Case')).toBe('Held for Synchrony’s review'));
    es.send(list([completedRow('app-1', 'Case', { state: 'funded', ...fundedMoney, depositOn: deposit })]));
    await waitFor(() => expect(moneyOf('Cora Case')).toMatch(/^Funded: \$3,120\.00 net of \$80\.00 fee \(2\.50%\) · deposit expected /));
    es.send(list([completedRow('app-1', 'Case', { state: 'deposited', ...fundedMoney, depositOn: deposit })]));
    await waitFor(() => expect(moneyOf('Cora Case')).toBe('Deposited $3,120.00 · SYN-D-20300104'));
  });
});

describe('live updates', () => {
  it('takes the rows from the stream and updates them without a reload, announcing real changes only', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    const sent = stubOffice({ 'GET /office/session': [json(session)] });
    const { view } = open();
    await screen.findByText('Loading the list…');
    const es = FakeEventSource.latest();
    expect(new URL(es.url, 'http://x').pathname).toBe('/api/v1/office/applications/stream');
    expect(es.query.get('day')).toBe(toIso(today()));
    expect(es.query.get('tz')).toBe(TZ);

    es.send(list([rows[2]!]));
    expect(await screen.findByText('Pat Pending')).toBeTruthy();
    const live = screen.getAllByRole('status').find((s) => s.getAttribute('aria-live') === 'polite')!;
    expect(live.textContent).toBe('');

    es.send(list([rows[0]!, rows[2]!]));
    expect(await screen.findByText('Ann Approve')).toBeTruthy();
    expect(live.textContent).toBe('List updated');
    // The same list again changes nothing and says nothing new.
    es.send(list([rows[0]!, rows[2]!]));
    expect(live.textContent).toBe('List updated');
    es.send(list([rows[0]!, { ...rows[2]!, status: 'approved' }]));
    await waitFor(() => expect(live.textContent).toBe('List updated\u00a0'));
    expect(within(screen.getByRole('table')).queryByText('Lender still deciding')).toBeNull();
    expect(listCalls(sent)).toHaveLength(0);

    // A new filter closes the stream and opens one for it.
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'approved');
    await waitFor(() => expect(FakeEventSource.all).toHaveLength(2));
    expect(es.readyState).toBe(FakeEventSource.CLOSED);
    expect(FakeEventSource.latest().query.get('status')).toBe('approved');
    view.unmount();
    expect(FakeEventSource.latest().readyState).toBe(FakeEventSource.CLOSED);
  });

  it('polls every 5 seconds once the stream is given up', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    vi.stubGlobal('EventSource', FakeEventSource);
    const sent = stubOffice({
      'GET /office/session': [json(session)],
      'GET /office/applications': [json(list([rows[2]!])), json(list([rows[0]!, rows[2]!]))],
    });
    open();
    await advance(0);
    await advance(0);
    FakeEventSource.latest().fail();
    await advance(0);
    expect(listCalls(sent)).toHaveLength(1);
    expect(screen.getByText('Pat Pending')).toBeTruthy();
    await advance(POLL_MS - 1);
    expect(listCalls(sent)).toHaveLength(1);
    await advance(1);
    expect(listCalls(sent)).toHaveLength(2);
    expect(screen.getByText('Ann Approve')).toBeTruthy();
    await advance(POLL_MS);
    expect(listCalls(sent)).toHaveLength(3);
  });

  it('keeps polling through a failure, and says so', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    stubOffice({
      'GET /office/session': [json(session)],
      'GET /office/applications': [json(list([rows[2]!])), json({ code: 'internal', message: 'Oops.' }, 500), json(list([rows[2]!]))],
    });
    open();
    await advance(0);
    await advance(0);
    expect(screen.getByText('Pat Pending')).toBeTruthy();
    await advance(POLL_MS);
    expect(screen.getByRole('alert').textContent).toBe('We could not refresh the list. We will keep trying.');
    expect(screen.getByText('Pat Pending')).toBeTruthy();
    await advance(POLL_MS);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('moves on to the new day at midnight when showing today', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(new Date(2030, 0, 2, 23, 59, 30));
    vi.stubGlobal('EventSource', FakeEventSource);
    stubOffice({ 'GET /office/session': [json(session)] });
    open();
    await advance(0);
    await advance(0);
    expect(FakeEventSource.latest().query.get('day')).toBe('2030-01-02');
    await advance(31_000);
    expect(FakeEventSource.all).toHaveLength(2);
    expect(FakeEventSource.all[0]!.readyState).toBe(FakeEventSource.CLOSED);
    expect(FakeEventSource.latest().query.get('day')).toBe('2030-01-03');
  });

  it('goes back to the sign-in form when a call answers 401', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    stubOffice({ 'GET /office/session': [json(session)], 'GET /office/applications': [signedOut401()] });
    open();
    await screen.findByText('Loading the list…');
    const es = FakeEventSource.latest();
    es.fail();
    expect(await screen.findByRole('heading', { level: 1, name: 'Office sign-in' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('You are signed out. Please sign in again.');
    expect(es.readyState).toBe(FakeEventSource.CLOSED);
  });

  it('goes back to the sign-in form at once when the stream says the session ended', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    stubOffice({ 'GET /office/session': [json(session)] });
    open();
    await screen.findByText('Loading the list…');
    const es = FakeEventSource.latest();
    es.send(list([rows[2]!]));
    expect(await screen.findByText('Pat Pending')).toBeTruthy();
    es.signOut();
    expect(await screen.findByRole('heading', { level: 1, name: 'Office sign-in' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('You are signed out. Please sign in again.');
    expect(es.readyState).toBe(FakeEventSource.CLOSED);
  });
});
