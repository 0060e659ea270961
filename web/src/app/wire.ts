import type { createBrowserRouter } from 'react-router';
import { configureApi } from '@/lib/api/environment';
import { configureClientLog, routePattern } from '@/lib/clientLog';
import { flow } from '@/stores/flow';

type AppRouter = ReturnType<typeof createBrowserRouter>;

/**
 * wireRouter plugs the router into the shared code: the API client's one
 * error handler navigates through it and records validation errors in the
 * flow store, and error reports name the route's pattern (never the concrete
 * URL), only while a session is live. The route tests wire a memory router
 * the same way.
 */
export function wireRouter(router: AppRouter): void {
  configureApi({
    getSessionId: () => flow.get().session?.webSessionId,
    navigate: (to, replace) => void router.navigate(to, { replace }),
    onValidation: (validation) => flow.set({ validation }),
    currentPath: () => router.state.location.pathname,
  });
  configureClientLog({
    getSessionId: () => flow.get().session?.webSessionId,
    currentRoute: () => routePattern(router.state.matches.map((m) => m.route.path)),
  });
}
