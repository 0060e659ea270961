import { createBrowserRouter } from 'react-router';
import { inAppDocRoute } from '@/lib/docLinks';
import { routes } from './routes';
import { wireRouter } from './wire';

// A documents link of the old shape (/#/docs/{doc}) opened on its own — a new
// tab, a bookmark — lands on the documents page rather than the start screen.
const docFromHash = window.location.hash.startsWith('#/docs/') ? inAppDocRoute(window.location.href) : null;
if (docFromHash) window.history.replaceState(null, '', docFromHash);

export const router = createBrowserRouter(routes);

wireRouter(router);
