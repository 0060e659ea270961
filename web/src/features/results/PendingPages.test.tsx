import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { configureApi } from '@/lib/api/client';
import type { Decision, Session } from '@/lib/api/types';
import { flow } from '@/stores/flow';
import { lender, withCatalogue } from '@/test/catalogue';
import { json, routes as serve, type Call } from '@/test/fetch';
import { decision } from '@/test/fixtures';
import { submitPatch } from './api/pending';
import { PatchPage } from './PatchPage';
import { PendingPage, UnderReviewPage } from './ResultPages';
import { STATE_WORDS, stipulationState } from './stipulations';
import { POLL_DELAYS_MS } from './usePendingPoll';

/*
 * The pending screens (docs/behaviour.md, "Pending, patches and
 * stipulations"): status checks with a backoff while the screen is open,
 * the stipulations in plain words, the income patch, and the under-review
 * screen, which never reads as a decline.
 */

const SYF = 'synchrony_standard';
const DECLINE_WORDS = /declin|couldn’t approve|wasn’t approved|not approved|letter explaining/i;
const STATUS = `/providers/${SYF}/application-status`;

const pendingState = (d: Decision) => json({ providerKey: SYF, role: 'primary', applyMode: 'full', status: 'decided', decision: d });

let calls: Call[];

function setHidden(hidden: boolean) {
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
  document.dispatchEvent(new Event('visibilitychange'));
}

beforeEach(() => {
  flow.reset();
  configureApi({ getSessionId: () => 's1', navigate: vi.fn(), onValidation: vi.fn(), currentPath: () => '/p' });
  flow.set({ session: { webSessionId: 's1' } as Session, providerKey: SYF, primaryLenderKey: SYF, applyMode: 'full' });
  withCatalogue([lender(SYF, 'Synchrony', { supportsFullAppMode: true })]);
});
afterEach(() => {
  setHidden(false);
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function renderAt(rest: string, page: React.ReactElement, answer?: Decision) {
  if (answer) flow.response(SYF, { apply: answer });
  const router = createMemoryRouter(
    [
      { path: '/providers/:providerKey/:page', element: page },
      { path: '/providers/:providerKey/patch/:patchType', element: page },
      { path: '/finish/:type', element: <h1>Finished</h1> },
    ],
    { initialEntries: [`/providers/${SYF}/${rest}`] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

/** advance moves the fake clock and lets the answers of the checks it set off arrive. */
async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

const statusCalls = () => calls.filter((c) => c.path === STATUS).length;

describe('PendingPage status checks', () => {
  const pending = decision(SYF, 'pending', { operation: 'apply', lenderApplicationId: 'SYF-1' });

  it('checks after 5 seconds, then waits longer each time, says when it last checked, and stops after a few minutes', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    calls = serve({ [STATUS]: [pendingState(pending)] });
    renderAt('pending', <PendingPage />, pending);
    await advance(0);
    expect(screen.getByRole('heading', { level: 1, name: 'Your application is being reviewed' })).toBeTruthy();
    await advance(4_999);
    expect(statusCalls()).toBe(0);
    await advance(1);
    expect(statusCalls()).toBe(1);
    expect(screen.getByText(/^Last checked at .*: Synchrony has not decided yet\.$/)).toBeTruthy();
    await advance(POLL_DELAYS_MS[1] - 1);
    expect(statusCalls()).toBe(1);
    await advance(1);
    expect(statusCalls()).toBe(2);
    await advance(POLL_DELAYS_MS.slice(2).reduce((a, b) => a + b, 0));
    expect(statusCalls()).toBe(POLL_DELAYS_MS.length);
    await advance(10 * 60_000);
    expect(statusCalls()).toBe(POLL_DELAYS_MS.length);
    // "Check again" asks at once and starts the waits over.
    fireEvent.click(screen.getByRole('button', { name: 'Check again' }));
    await advance(0);
    expect(statusCalls()).toBe(POLL_DELAYS_MS.length + 1);
    await advance(POLL_DELAYS_MS[1]);
    expect(statusCalls()).toBe(POLL_DELAYS_MS.length + 2);
  });

  it('checks nothing while the tab is hidden and picks up when it is shown again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    calls = serve({ [STATUS]: [pendingState(pending)] });
    renderAt('pending', <PendingPage />, pending);
    await advance(0);
    setHidden(true);
    await advance(60_000);
    expect(statusCalls()).toBe(0);
    setHidden(false);
    await advance(POLL_DELAYS_MS[0]);
    expect(statusCalls()).toBe(1);
  });

  it('never has two checks on their way', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    let release: () => void = () => undefined;
    const slow = new Promise<void>((r) => (release = r));
    let n = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        n += 1;
        await slow;
        return pendingState(pending);
      }),
    );
    renderAt('pending', <PendingPage />, pending);
    await advance(POLL_DELAYS_MS[0]);
    expect(n).toBe(1);
    const again = screen.getByRole('button', { name: 'Check again' });
    fireEvent.click(again);
    fireEvent.click(again);
    await advance(60_000);
    expect(n).toBe(1);
    await act(async () => release());
  });

  it('moves on to the plans when the lender approves', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const approved = decision(SYF, 'approved', { operation: 'apply', approvedAmountCents: 500_000 });
    calls = serve({ [STATUS]: [pendingState(pending), pendingState(approved)] });
    const router = renderAt('pending', <PendingPage />, pending);
    await advance(POLL_DELAYS_MS[0]);
    expect(router.state.location.pathname).toBe(`/providers/${SYF}/pending`);
    await advance(POLL_DELAYS_MS[1]);
    expect(router.state.location.pathname).toBe(`/providers/${SYF}/paymentPlans`);
    expect(flow.get().responses[SYF]?.apply?.responseCode).toBe('approved');
    await advance(10 * 60_000);
    expect(statusCalls()).toBe(2);
  });

  it('moves on to the declined screen when the lender declines', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    calls = serve({ [STATUS]: [pendingState(decision(SYF, 'declined', { operation: 'apply' }))] });
    const router = renderAt('pending', <PendingPage />, pending);
    await advance(POLL_DELAYS_MS[0]);
    expect(router.state.location.pathname).toBe(`/providers/${SYF}/declined`);
    expect(flow.get().declinedBy).toEqual([SYF]);
  });
});

describe('stipulations in plain words', () => {
  it('shows the state the server read, and never claims more than waiting without one', () => {
    expect(stipulationState({ state: 'received' })).toBe('received');
    expect(stipulationState({ state: 'done' })).toBe('done');
    expect(stipulationState({ state: 'waiting' })).toBe('waiting');
    expect(stipulationState({})).toBe('waiting');
    expect(STATE_WORDS.waiting).toBe('Waiting for you');
  });

  it('“Check again” also asks the lender where each stands, and shows the new state', async () => {
    const stip = { id: 'a', type: 'identity_verification', status: 'pending', state: 'waiting' as const, description: 'Confirm your identity.' };
    const pending = decision(SYF, 'pending', { operation: 'apply', stipulations: [stip] });
    calls = serve({
      [STATUS]: [pendingState(pending)],
      [`/providers/${SYF}/application/stipulations/refresh`]: [json({ stipulations: [{ ...stip, status: 'received', state: 'received' }] })],
    });
    renderAt('pending', <PendingPage />, pending);
    expect(await screen.findByText('Waiting for you.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Check again' }));
    expect(await screen.findByText('Received — the lender is looking at it.')).toBeTruthy();
    expect(calls.map((c) => c.path)).toEqual([STATUS, `/providers/${SYF}/application/stipulations/refresh`]);
  });

  it('lists each with its status and what the patient can do', () => {
    calls = serve({ [STATUS]: [pendingState(decision(SYF, 'pending'))] });
    renderAt(
      'pending',
      <PendingPage />,
      decision(SYF, 'pending', {
        operation: 'apply',
        stipulations: [
          { id: 'a', type: 'identity_verification', status: 'pending', state: 'waiting', description: 'The lender needs to confirm your identity.' },
          { id: 'b', type: 'additional_documents_needed', status: 'received', state: 'received', description: 'A pay stub.' },
        ],
      }),
    );
    const items = screen.getAllByRole('listitem').map((li) => li.textContent);
    expect(items).toEqual([
      'The lender needs to confirm your identity. Waiting for you. Synchrony may call or write to you to confirm who you are. Have a photo ID ready.',
      'A pay stub. Received — the lender is looking at it.',
    ]);
  });
});

describe('PatchPage (income)', () => {
  const asked = decision(SYF, 'pending', {
    stipulations: [{ id: 'i', type: 'income', status: 'pending', description: 'The lender needs your verified yearly income before taxes.' }],
  });

  it('checks the income with the application’s rules before anything is sent', async () => {
    calls = serve({});
    const router = renderAt('patch/income', <PatchPage />, asked);
    expect(await screen.findByRole('heading', { level: 1, name: 'Synchrony needs your income' })).toBeTruthy();
    const send = screen.getByRole('button', { name: 'Send to Synchrony' });
    fireEvent.click(send);
    expect(await screen.findByText('Required Field')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Yearly income before taxes'), { target: { value: '12345678901' } });
    fireEvent.click(send);
    expect(await screen.findByText(/Must be at most/)).toBeTruthy();
    expect(calls).toEqual([]);
    fireEvent.change(screen.getByLabelText('Yearly income before taxes'), { target: { value: '65,000' } });
    fireEvent.click(send);
    await vi.waitFor(() => expect(router.state.location.pathname).toBe(`/providers/${SYF}/patchSubmit`));
  });

  it('sends the income in cents and leads to the plans when the lender approves', async () => {
    calls = serve({
      [`/providers/${SYF}/patch/income`]: [pendingState(decision(SYF, 'prequalified', { approvedAmountCents: 500_000, lenderApplicationId: 'NEW' }))],
    });
    const router = renderAt('patch/income', <PatchPage />, asked);
    fireEvent.change(await screen.findByLabelText('Yearly income before taxes'), { target: { value: '65000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send to Synchrony' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe(`/providers/${SYF}/patchSubmit`));
    expect(await submitPatch()).toBe(`/providers/${SYF}/patchSuccessful`);
    expect(JSON.parse(calls[0]!.body!)).toEqual({ annualGrossIncome: 6_500_000 });
    expect(flow.get().responses[SYF]?.preAuth?.lenderApplicationId).toBe('NEW');
  });
});

describe('the references of a pending application', () => {
  it('show our short reference, and a lender’s only when it can be read out on the phone', async () => {
    calls = serve({});
    flow.set({ applicantId: '4F2A-91C0' });
    const long = 'sbx1.' + 'x'.repeat(43);
    renderAt('under-review', <UnderReviewPage />, decision(SYF, 'pending', { pendingReasons: ['red_flag'], lenderApplicationId: long }));
    expect(await screen.findByText('4F2A-91C0')).toBeTruthy();
    expect(screen.getByText(/With it, the office manager can find your application\./)).toBeTruthy();
    expect(screen.queryByText(long)).toBeNull();
    expect(screen.getByText('If you call Synchrony, they can find your application with your name and date of birth.')).toBeTruthy();
  });
});

describe('UnderReviewPage', () => {
  it('says the lender is reviewing, that it is not a decline, what happens next and the reference — and offers no new application', async () => {
    calls = serve({});
    renderAt('under-review', <UnderReviewPage />, decision(SYF, 'pending', { pendingReasons: ['red_flag'], lenderApplicationId: 'SYF-RF-1' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Your application is under review' })).toBeTruthy();
    expect(screen.getByText(/it is not a decline/)).toBeTruthy();
    expect(screen.getByText('Synchrony may contact you to confirm who you are. Have a photo ID ready.')).toBeTruthy();
    expect(screen.getByText(/send you their decision by mail or call you/)).toBeTruthy();
    expect(screen.getByText('SYF-RF-1')).toBeTruthy();
    const text = (document.body.textContent ?? '').replace('it is not a decline', '');
    expect(text).not.toMatch(DECLINE_WORDS);
    expect(text).not.toMatch(/apply again/i);
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Finish']);
  });
});
