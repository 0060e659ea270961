import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { Session } from '@/lib/api/types';
import { flow, type FlowState } from '@/stores/flow';
import { DEMO_LENDERS } from '@/test/catalogue';
import { routes } from './routes';
import { wireRouter } from './wire';

/*
 * Helpers of the route-level tests (app/routes.*.test.tsx): the real route
 * table, shell and screens, wired as in the app, against a mocked API.
 */

/** openApp renders the whole app at a path and answers its router. */
export function openApp(path: string, state?: unknown) {
  const router = createMemoryRouter(routes, { initialEntries: [state === undefined ? path : { pathname: path, state }] });
  wireRouter(router);
  render(<RouterProvider router={router} />);
  return router;
}

/** liveSession puts a live session with the demo catalogue in the store, at providerKey, plus anything else given. */
export function liveSession(providerKey: string, over: Partial<FlowState> = {}): void {
  flow.set({
    session: { webSessionId: 's1', properties: { state: 'CA' }, warnCountdownMillis: 30_000, timeoutAfterMillis: 600_000 } as unknown as Session,
    providerKey,
    primaryLenderKey: providerKey,
    applyMode: 'prequalify',
    lenders: Object.fromEntries(DEMO_LENDERS.map((p) => [p.providerKey, p])),
    ...over,
  });
}
