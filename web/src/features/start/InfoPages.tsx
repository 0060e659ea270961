import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api } from '@/lib/api/client';
import { Page } from '@/components/Page';
import { ResultIcon } from '@/components/ResultIcon';
import type { ClientErrorCode } from '@/lib/api/types';
import { useWording } from '@/lib/wording';
import { Trans, useT } from '@/lib/i18n';

/** The error codes with words of their own (start.error.codes); any other gets the general words. */
const WORDED = [
  'network',
  'in_flight',
  'amount_changed',
  'rate_limited',
  'daily_limit',
  'session_limit',
  'resource_not_found',
  'unknown_response',
] as const satisfies readonly (ClientErrorCode | 'unknown_response')[];
type Worded = (typeof WORDED)[number];
const isWorded = (code: string): code is Worded => (WORDED as readonly string[]).includes(code);

/** ErrorPage: the general error page (docs/behaviour.md, "Routes"). Never a blank screen. */
export function ErrorPage() {
  const [q] = useSearchParams();
  const { staff } = useWording();
  const t = useT();
  const code = q.get('code') ?? '';
  const requestId = q.get('requestId');
  return (
    <div className="card">
      <ResultIcon kind="warn" />
      <Page title={t('start.error.title')}>
        <p>{isWorded(code) ? t(`start.error.codes.${code}`, { staff }) : t('start.error.other', { staff })}</p>
        {requestId ? (
          <p className="muted">
            <Trans i18nKey="start.error.reference" values={{ staff, requestId }} components={{ strong: <strong /> }} />
          </p>
        ) : null}
        <p>
          <Link to="/idle">{t('common.actions.backToStart')}</Link>
        </p>
      </Page>
    </div>
  );
}

export function NotFoundPage() {
  const t = useT();
  return (
    <div className="card">
      <Page title={t('start.notFound.title')}>
        <p>{t('start.notFound.body')}</p>
        <p>
          <Link to="/idle">{t('common.actions.backToStart')}</Link>
        </p>
      </Page>
    </div>
  );
}

/** Shown while the server's version is on its way: no words. */
const WAITING = '…';

export function VersionPage() {
  const [server, setServer] = useState<{ version: string; commit: string; env: string } | null>(null);
  const t = useT();
  useEffect(() => {
    api.get<{ version: string; commit: string; env: string }>('/internal/version', { noErrorHandling: true }).then(setServer, () => setServer(null));
  }, []);
  return (
    <div className="card">
      <Page title={t('start.version.title')}>
        <p>
          {t('start.version.web')} <code>{__APP_VERSION__}</code>
        </p>
        <p>
          {t('start.version.server')} <code>{server ? `${server.version} ${server.commit} (${server.env})` : WAITING}</code>
        </p>
      </Page>
    </div>
  );
}
