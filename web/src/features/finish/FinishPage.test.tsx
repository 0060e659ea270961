import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { CurrentLocation, Session, StartFlowResponse } from '@/lib/api/types';
import { FINISH_CLEAR_DELAY_MS, finishFlow } from '@/flow/finish';
import { flow } from '@/stores/flow';
import { lender, withCatalogue } from '@/test/catalogue';
import { fixedRatePlan } from '@/test/fixtures';
import { json, routes as serve } from '@/test/fetch';
import { CompletePage } from './CompletePage';
import { finishMessages, FinishPage } from './FinishPage';
import { wording } from '@/lib/wording';

/*
 * Finishing (docs/behaviour.md, "Finishing"): every message in the
 * office's and the at-home wording, "start again" at the same office from
 * the session just finished, and the delayed finish of the completion
 * screen.
 */

const session = { webSessionId: 'old-session', env: 'test', groupId: 'g-1', experienceType: 'at_home' } as Session;
const again = {
  session: { ...session, webSessionId: 'new-session', dynamicProviderKey: 'synchrony_standard', properties: { applyMode: 'prequalify' } },
  application: { purchaseAmountCents: 0, primary: {} },
  location: { name: 'Maple Street Dental', state: 'OR', groupId: 'g-1' },
} as StartFlowResponse;

function show(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/finish/:type', Component: FinishPage },
      { path: '/complete', Component: CompletePage },
      { path: '/providers/:providerKey/modes/:mode/start', Component: () => <h1>Form</h1> },
      { path: '/idle', Component: () => <h1>Idle</h1> },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

beforeEach(() => flow.reset());
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the finish screen', () => {
  it('has an office and an at-home wording for every outcome, and at home never asks to hand a device back', () => {
    for (const [kind, m] of Object.entries(finishMessages(wording(null)))) {
      expect(m.inStore, kind).not.toBe(m.atHome);
      expect(m.atHome, kind).not.toMatch(/hand (this device|it) back/);
      expect(m.inStore, kind).toMatch(/hand (this device|it) back/);
    }
  });

  it('at home after a time-out never says to use a link again (a one-time link cannot be); with nothing to restart from, it asks for a new link', () => {
    flow.set({ experienceType: 'at_home' });
    show('/finish/timeout');
    expect(screen.queryByText(/link again/)).toBeNull();
    expect(screen.getByText('To apply again, please ask the office manager for a new link.')).toBeTruthy();
  });

  it('"canceled" is the cancel screen, an unknown outcome the general one', () => {
    show('/finish/canceled');
    expect(screen.getByRole('heading', { level: 1, name: 'Application canceled' })).toBeTruthy();
  });

  it('starts again at the same office, in the same experience, from the session just finished', async () => {
    const calls = serve({ '/flow/finish/timeout': [json({ outcome: 'timeout' })], '/flow/start/again': [json(again)] });
    flow.set({ session, experienceType: 'at_home', groupId: 'g-1' });
    await finishFlow('timeout');
    const router = show('/finish/timeout');
    await userEvent.click(screen.getByRole('button', { name: 'Start a new application' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/providers/synchrony_standard/modes/prequalify/start'));
    const start = calls.find((c) => c.path === '/flow/start/again');
    expect(JSON.parse(start!.body!)).toEqual({ previousSessionId: 'old-session' });
    expect(flow.get().session?.webSessionId).toBe('new-session');
    expect(flow.get().experienceType).toBe('at_home');
  });

  it('a finish asked as completed after a decline says the application is closed, never that it is complete', async () => {
    serve({ '/flow/finish/completed': [json({ outcome: 'declined' })] });
    flow.set({ session, experienceType: 'in_store' });
    const to = await finishFlow('completed');
    expect(to).toBe('/finish/closed');
    show(to);
    expect(screen.getByText(/This application is closed\./)).toBeTruthy();
    expect(screen.queryByText(/Your application is finished/)).toBeNull();
  });

  it.each(['no_offer', 'offer_expired', 'no_financing'])('and after %s too', async (outcome) => {
    serve({ '/flow/finish/completed': [json({ outcome })] });
    flow.set({ session, experienceType: 'at_home' });
    expect(await finishFlow('completed')).toBe('/finish/closed');
  });

  it('a completed application stays completed', async () => {
    serve({ '/flow/finish/completed': [json({ outcome: 'completed' })] });
    flow.set({ session, experienceType: 'at_home' });
    expect(await finishFlow('completed')).toBe('/finish/completed');
  });

  it('when the server no longer starts again from it, says how to get a new link', async () => {
    serve({
      '/flow/finish/canceled': [json({ outcome: 'canceled' })],
      '/flow/start/again': [json({ code: 'resource_not_found', message: 'x' }, 404)],
    });
    flow.set({ session, experienceType: 'in_store', location: { name: 'Maple Street Dental', brandName: 'Maple Street Dental' } as CurrentLocation });
    await finishFlow('cancel');
    show('/finish/cancel');
    // The office's brand survives the finish: its wording is still used.
    expect(screen.getByText(/Please hand it back to the Maple Street Dental team\./)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Start a new application' }));
    expect(await screen.findByText('To apply again, please ask the Maple Street Dental team for a new QR code.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Start a new application' })).toBeNull();
  });
});

describe('the completion screen finishes with the delay flag', () => {
  it('finishes at once, stays put, and clears the details after a minute without navigating', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const calls = serve({ '/flow/finish/completed': [json({ outcome: 'completed' })] });
    withCatalogue([lender('synchrony_standard', 'Synchrony')]);
    flow.set({
      session,
      experienceType: 'in_store',
      providerKey: 'synchrony_standard',
      location: { name: 'Maple Street Dental' } as CurrentLocation,
      selectedPaymentPlan: fixedRatePlan('synchrony_standard', { monthlyAmountCents: 13_250, durationMonths: 24 }),
    });
    const router = show('/complete');
    await waitFor(() => expect(calls.filter((c) => c.path === '/flow/finish/completed')).toHaveLength(1));
    // The plan's payments as it states them (issue 27): its count, not only its term.
    expect(screen.getByText('24 payments of $132.50')).toBeTruthy();
    expect(flow.get().session).not.toBeNull();

    await act(async () => {
      await vi.advanceTimersByTimeAsync(FINISH_CLEAR_DELAY_MS);
    });
    expect(flow.get().session).toBeNull();
    expect(flow.get().previousSessionId).toBe('old-session');
    expect(router.state.location.pathname).toBe('/complete');
    expect(screen.getByRole('heading', { level: 1, name: 'You’re all set' })).toBeTruthy();
    expect(screen.queryByText('24 payments of $132.50')).toBeNull();
    expect(screen.getByText('For your privacy, we’ve cleared your details from this screen.')).toBeTruthy();
    // Pressing Finish afterwards shows the finish screen without finishing twice.
    await userEvent.click(screen.getByRole('button', { name: 'Finish' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/finish/completed'));
    expect(calls.filter((c) => c.path.startsWith('/flow/finish'))).toHaveLength(1);
  });

  it('a cancel in that minute (the top bar’s close) cannot turn the completed application into a canceled one', async () => {
    const calls = serve({ '/flow/finish/completed': [json({ outcome: 'completed' })] });
    flow.set({ session, experienceType: 'in_store', providerKey: 'synchrony_standard' });
    show('/complete');
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(await finishFlow('cancel')).toBe('/finish/completed');
    expect(calls.map((c) => c.path)).toEqual(['/flow/finish/completed']);
    expect(flow.get().session).toBeNull();
  });

  it('Finish pressed while the screen’s own finish is still on its way finishes once', async () => {
    // A slow server (a loaded machine): the completion screen's finish has not been answered when Finish is pressed.
    const releases: (() => void)[] = [];
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        calls.push(String(url));
        await new Promise<void>((r) => releases.push(r));
        return json({ outcome: 'completed' });
      }),
    );
    flow.set({ session, experienceType: 'in_store', providerKey: 'synchrony_standard' });
    const router = show('/complete');
    await waitFor(() => expect(calls).toHaveLength(1));
    await userEvent.click(screen.getByRole('button', { name: 'Finish' }));
    releases.forEach((r) => r());
    await waitFor(() => expect(router.state.location.pathname).toBe('/finish/completed'));
    releases.forEach((r) => r());
    expect(calls.filter((c) => c.includes('/flow/finish'))).toHaveLength(1);
  });

  it('Finish before the minute is up clears at once and never finishes twice', async () => {
    const calls = serve({ '/flow/finish/completed': [json({ outcome: 'completed' })] });
    flow.set({ session, experienceType: 'at_home', providerKey: 'synchrony_standard' });
    const router = show('/complete');
    await waitFor(() => expect(calls).toHaveLength(1));
    await userEvent.click(screen.getByRole('button', { name: 'Finish' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/finish/completed'));
    expect(flow.get().session).toBeNull();
    expect(calls.filter((c) => c.path.startsWith('/flow/finish'))).toHaveLength(1);
  });
});
