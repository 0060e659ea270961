import { useEffect } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { reportClientError } from '@/lib/clientLog';
import { currentWording } from '@/lib/wording';

/** RootError: never a blank screen, whatever failed (a chunk that would not load included). */
export function RootError() {
  const error = useRouteError();
  const chunk = error instanceof Error && /dynamically imported module|Importing a module script failed|Failed to fetch/i.test(error.message);
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  useEffect(() => {
    if (!error) return;
    console.warn('route error', error instanceof Error ? error.message : String(error));
    reportClientError(chunk ? 'ui.chunk_load_failed' : notFound ? 'ui.route_not_found' : 'ui.route_error');
  }, [error, chunk, notFound]);
  return (
    <main className="main" id="main">
      <div className="card">
        <h1>{notFound ? 'Page not found' : 'Something went wrong'}</h1>
        <p>
          {chunk
            ? 'Part of the page could not be loaded. Please check the connection and try again.'
            : `We could not show this page. Your answers have not been sent twice. Please ask ${currentWording().staff} for help.`}
        </p>
        <p>
          <a className="btn" href="/idle">
            Go to the start screen
          </a>
        </p>
      </div>
    </main>
  );
}
