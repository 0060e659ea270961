import { useEffect } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { reportClientError } from '@/lib/clientLog';
import { useT } from '@/lib/i18n';
import { useWording } from '@/lib/wording';

/** RootError: never a blank screen, whatever failed (a chunk that would not load included). */
export function RootError() {
  const error = useRouteError();
  const t = useT();
  const { staff } = useWording();
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
        <h1>{notFound ? t('common.rootError.notFound') : t('common.rootError.title')}</h1>
        <p>{chunk ? t('common.rootError.chunk') : t('common.rootError.body', { staff })}</p>
        <p>
          <a className="btn" href="/idle">
            {t('common.rootError.startScreen')}
          </a>
        </p>
      </div>
    </main>
  );
}
