import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { flow } from '@/stores/flow';
import { useUi } from '@/stores/ui';
import { json, routes as serve } from '@/test/fetch';
import { liveSession, openApp } from './testing';

/*
 * What the shell does with a session, whose code comes only with one
 * (Shell.tsx): the time-out's question after a while without a click or a
 * key, and the cancel that finishes at once when the office asks for no
 * question. And what it shows before any of that: the first route, worded
 * from the shell's English alone (locales/en/shell.ts).
 */

const P = 'synchrony_standard';

beforeEach(() => {
  vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  flow.clear();
});

const finishServer = () =>
  serve({
    '/flow/finish/timeout': [json({ outcome: 'timeout' })],
    '/flow/finish/canceled': [json({ outcome: 'canceled' })],
    '/log': [new Response(null, { status: 204 })],
  });

describe('the session time-out', () => {
  it('asks whether the patient is still there after the session’s idle time, and No finishes it as timed out', async () => {
    // Animation frames too: the shell fetches the time-out's code after the screen has painted (useAfterPaint).
    vi.useFakeTimers({
      shouldAdvanceTime: true,
      toFake: [
        'setTimeout',
        'clearTimeout',
        'setInterval',
        'clearInterval',
        'setImmediate',
        'clearImmediate',
        'Date',
        'requestAnimationFrame',
        'cancelAnimationFrame',
      ],
    });
    const calls = finishServer();
    liveSession(P);
    const router = openApp('/404');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
    // The timer starts once its code has come, a couple of frames after the screen has shown; nothing is asked
    // before the idle time has passed.
    await act(() => import('@/features/session-timeout/SessionTimeout'));
    await act(() => vi.advanceTimersByTimeAsync(100));
    await act(() => vi.advanceTimersByTimeAsync(590_000));
    expect(useUi.getState().timeoutOpen).toBe(false);
    await act(() => vi.advanceTimersByTimeAsync(15_000));
    expect(await screen.findByRole('heading', { name: 'Are you still there?' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'No, close it' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/finish/timeout'));
    expect(calls.filter((c) => c.path === '/flow/finish/timeout')).toHaveLength(1);
    expect(flow.get().session).toBeNull();
  });
});

describe('the top bar’s cancel', () => {
  it('finishes at once, without the question, when the office asks for none', async () => {
    const calls = finishServer();
    liveSession(P);
    flow.set({ session: { ...flow.get().session!, showCancelModal: false } });
    const router = openApp(`/providers/${P}/error`);
    expect(await screen.findByRole('heading', { level: 1 })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel application' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/finish/cancel'));
    expect(calls.filter((c) => c.path === '/flow/finish/canceled')).toHaveLength(1);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('the first route', () => {
  it('is worded from the shell’s English alone, before the journey’s has loaded', async () => {
    // A copy of the app's modules in which no screen has asked for the journey's English (test/setup.ts loads it for the others).
    vi.resetModules();
    const [{ createMemoryRouter, RouterProvider }, { routerOptions, routes }, { wireRouter }] = await Promise.all([
      import('react-router'),
      import('./routes'),
      import('./wire'),
    ]);
    const router = createMemoryRouter(routes, { ...routerOptions, initialEntries: ['/idle'] });
    wireRouter(router);
    render(<RouterProvider router={router} />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome to Chairside' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Accessibility' })).toBeTruthy();
    // No message key in place of words, anywhere on the screen or in its labels.
    const labels = [...document.querySelectorAll('[aria-label]')].map((e) => e.getAttribute('aria-label')).join(' ');
    expect(`${document.body.textContent} ${labels}`).not.toMatch(/\b(common|start)\.\w+\./);
  });
});
