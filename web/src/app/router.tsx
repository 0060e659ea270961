import { createBrowserRouter } from 'react-router';
import { standaloneDocRoute } from '@/lib/docLinks';
import { routerOptions, routes } from './routes';
import { wireRouter } from './wire';

export type AppRouter = ReturnType<typeof createBrowserRouter>;

/**
 * createAppRouter makes the app's router when the app starts rather than as
 * its module loads: it ranks the whole route table and starts the first
 * navigation, some of the first load's heaviest work, and main.tsx gives it
 * a task of its own (docs/performance.md, "The application screen").
 */
export function createAppRouter(): AppRouter {
  // A documents link of the old shape (/#/docs/{doc}) opened on its own — a new
  // tab, a bookmark — lands on the documents page rather than the start screen,
  // with the lender and the session the link names (lib/docLinks.ts).
  const docFromHash = window.location.hash.startsWith('#/docs/') ? standaloneDocRoute(window.location.href) : null;
  if (docFromHash) window.history.replaceState(null, '', docFromHash);
  const router = createBrowserRouter(routes, routerOptions);
  wireRouter(router);
  return router;
}
