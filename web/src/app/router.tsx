import { createBrowserRouter } from 'react-router';
import { standaloneDocRoute } from '@/lib/docLinks';
import { routes } from './routes';
import { wireRouter } from './wire';

// A documents link of the old shape (/#/docs/{doc}) opened on its own — a new
// tab, a bookmark — lands on the documents page rather than the start screen,
// with the lender and the session the link names (lib/docLinks.ts).
const docFromHash = window.location.hash.startsWith('#/docs/') ? standaloneDocRoute(window.location.href) : null;
if (docFromHash) window.history.replaceState(null, '', docFromHash);

export const router = createBrowserRouter(routes);

wireRouter(router);
