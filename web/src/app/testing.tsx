import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { afterEach } from 'vitest';
import { configureApi } from '@/lib/api/environment';
import type { Session } from '@/lib/api/types';
import { flow, type FlowState } from '@/stores/flow';
import { DEMO_LENDERS } from '@/test/catalogue';
import { providersRoute } from './lenderRoutes';
import { routerOptions, routes } from './routes';
import { wireRouter } from './wire';

/*
 * Helpers of the route-level tests (app/routes.*.test.tsx): the real route
 * table, shell and screens, wired as in the app, against a mocked API.
 */

/** wholeTable is the route table with the lender's screens in it, as the app's router holds it once it has added them (routes.tsx, addLenderRoutes). */
export const wholeTable: RouteObject[] = [{ ...routes[0]!, children: [...routes[0]!.children!, providersRoute] } as RouteObject];

type TestRouter = ReturnType<typeof createMemoryRouter>;
const opened: TestRouter[] = [];

/** openApp renders the whole app at a path and answers its router. */
export function openApp(path: string, state?: unknown) {
  const router = createMemoryRouter(routes, { ...routerOptions, initialEntries: [state === undefined ? path : { pathname: path, state }] });
  opened.push(router);
  wireRouter(router);
  render(<RouterProvider router={router} />);
  return router;
}

// A test's app ends with the test: its router stops its loaders, and the API
// client's hooks point nowhere until the next test wires its own. A call the
// ended test left in flight answers to that test's router (client.ts keeps
// the hooks a call was made with), never to the next test's.
afterEach(() => {
  for (const router of opened.splice(0)) router.dispose();
  configureApi({ getSessionId: () => null, navigate: () => undefined, onValidation: () => undefined, currentPath: () => '/' });
});

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
