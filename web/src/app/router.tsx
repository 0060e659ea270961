import { createBrowserRouter } from 'react-router';
import { configureApi } from '@/lib/api/client';
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
  log: (level, message) => (level === 'ERROR' ? console.warn(message) : undefined),
});
