import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api } from '@/lib/api/client';
import { Page } from '@/components/Page';
import { ResultIcon } from '@/components/Icons';
import type { ClientErrorCode } from '@/lib/api/types';
import { useWording, type Wording } from '@/lib/wording';

const errors = ({ staff }: Wording): Partial<Record<ClientErrorCode | 'unknown_response', string>> => ({
  network: `We could not reach our server. Please check the internet connection, then ask ${staff} for help.`,
  in_flight: `The lender is still working on your application. Please don’t start a new application — wait a minute, then ask ${staff} to check its status.`,
  rate_limited: `There have been too many tries in a short time. Please wait a few minutes, then ask ${staff} for help.`,
  resource_not_found: 'We could not find what you were looking for.',
  unknown_response: `We got an answer we did not expect. Please don’t start a new application — ask ${staff} to check its status.`,
});

/** ErrorPage: the general error page (docs/behaviour.md, "Routes"). Never a blank screen. */
export function ErrorPage() {
  const [q] = useSearchParams();
  const words = useWording();
  const code = q.get('code') ?? '';
  const requestId = q.get('requestId');
  return (
    <div className="card">
      <ResultIcon kind="warn" />
      <Page title="Something went wrong">
        <p>
          {errors(words)[code as ClientErrorCode] ??
            `Something went wrong on our side. Please don’t start a new application — ask ${words.staff} for help.`}
        </p>
        {requestId ? (
          <p className="muted">
            Reference to give {words.staff}: <strong>{requestId}</strong>
          </p>
        ) : null}
        <p>
          <Link to="/idle">Back to the start screen</Link>
        </p>
      </Page>
    </div>
  );
}

export function NotFoundPage() {
  return (
    <div className="card">
      <Page title="Page not found">
        <p>We could not find this page.</p>
        <p>
          <Link to="/idle">Back to the start screen</Link>
        </p>
      </Page>
    </div>
  );
}

export function VersionPage() {
  const [server, setServer] = useState<{ version: string; commit: string; env: string } | null>(null);
  useEffect(() => {
    api.get<{ version: string; commit: string; env: string }>('/internal/version', { noErrorHandling: true }).then(setServer, () => setServer(null));
  }, []);
  return (
    <div className="card">
      <Page title="Version">
        <p>
          Chairside web <code>{__APP_VERSION__}</code>
        </p>
        <p>
          Server <code>{server ? `${server.version} ${server.commit} (${server.env})` : '…'}</code>
        </p>
      </Page>
    </div>
  );
}
