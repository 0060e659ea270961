import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { ApiError } from '@/lib/api/client';
import type { Session } from '@/lib/api/types';
import { flow } from '@/stores/flow';
import { withCatalogue } from '@/test/catalogue';
import { Progress } from '@/components/Progress';
import { SubmitPage } from './SubmitPage';

/** The operation the app wires for the route (app/submissions.ts), here a mock. */
const submitDecision = vi.fn<(op: string) => Promise<string>>();

afterEach(() => submitDecision.mockReset());

function stillWorking(code: 'in_flight' | 'network'): ApiError {
  const e = new ApiError(code === 'network' ? 0 : 409, { code });
  e.stillWorking = true;
  e.providerKey = 'synchrony_standard';
  return e;
}

function renderAt(path: string) {
  flow.reset();
  flow.set({ session: { webSessionId: 's1' } as Session, providerKey: 'synchrony_standard', applyMode: 'prequalify' });
  withCatalogue();
  const router = createMemoryRouter(
    [
      {
        path: '/providers/:providerKey/prequalifySubmit',
        element: (
          <>
            <SubmitPage run={submitDecision} />
            <Progress />
          </>
        ),
      },
      { path: '/providers/:providerKey/declined', element: <h1>Declined screen</h1> },
      { path: '/error', element: <h1>Error page</h1> },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

describe('SubmitPage when the lender is still working on it', () => {
  it('says so calmly, never the error page, and Try again asks again', async () => {
    submitDecision.mockRejectedValueOnce(stillWorking('in_flight')).mockResolvedValueOnce('/providers/synchrony_standard/declined');
    const router = renderAt('/providers/synchrony_standard/prequalifySubmit');
    expect(await screen.findByRole('heading', { name: 'Synchrony is still working on it' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/providers/synchrony_standard/prequalifySubmit');
    expect(screen.queryByText('Error page')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Declined screen')).toBeTruthy();
    expect(submitDecision).toHaveBeenCalledTimes(2);
    expect(submitDecision).toHaveBeenCalledWith('prequalifySubmit');
  });

  it('a connection that stayed down says so, with the same way out', async () => {
    submitDecision.mockRejectedValueOnce(stillWorking('network'));
    renderAt('/providers/synchrony_standard/prequalifySubmit');
    expect(await screen.findByRole('heading', { name: 'We can’t reach our server right now' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});

describe('SubmitPage while the lender decides', () => {
  it('names the lender asked now and what happens if it does not answer, never a bare “Working on it…”', async () => {
    submitDecision.mockImplementationOnce(() => {
      flow.setProgress('Checking your options with Synchrony…', 'If Synchrony doesn’t answer, we’ll ask Fortiva next.');
      return new Promise<string>(() => undefined);
    });
    renderAt('/providers/synchrony_standard/prequalifySubmit');
    expect(await screen.findByText('If Synchrony doesn’t answer, we’ll ask Fortiva next.')).toBeTruthy();
    expect(screen.getAllByText('Checking your options with Synchrony…').length).toBeGreaterThan(0);
    expect(screen.queryByText('Working on it…')).toBeNull();
  });
});
