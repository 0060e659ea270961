import { createBrowserRouter } from 'react-router';
import { configureApi } from '@/lib/api/client';
import { configureClientLog, routePattern } from '@/lib/clientLog';
import { flow } from '@/stores/flow';
import { routes } from './routes';

export const router = createBrowserRouter(routes);

// The API client's one error handler navigates through the router and
// records validation errors in the flow store.
configureApi({
  getSessionId: () => flow.get().session?.webSessionId,
  navigate: (to, replace) => void router.navigate(to, { replace }),
  onValidation: (validation) => flow.set({ validation }),
  currentPath: () => router.state.location.pathname,
});

// Reports to the server name the route's pattern (never the concrete URL),
// and only while a session is live.
configureClientLog({
  getSessionId: () => flow.get().session?.webSessionId,
  currentRoute: () => routePattern(router.state.matches.map((m) => m.route.path)),
});
