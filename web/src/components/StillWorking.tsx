import { Page } from './Page';
import { Button } from './Button';
import { ResultIcon } from './Icons';

/**
 * StillWorking is what a patient sees when a lender step (checking options,
 * accepting the offer, signing, completing) has not answered after about two
 * minutes of waiting and retrying: calm words, never an error page, and a
 * way to ask again. Asking again never sends anything twice; the server
 * answers a repeat with the first answer.
 */
export function StillWorking({ lender, offline, onRetry, busy = false }: { lender: string; offline: boolean; onRetry: () => void; busy?: boolean }) {
  return (
    <div className="card" data-testid="still-working">
      <ResultIcon kind="info" />
      <Page title={offline ? 'We can’t reach our server right now' : `${lender} is still working on it`}>
        <p className="lead">
          {offline
            ? 'The connection may have dropped. Please check that this device is online, then try again.'
            : `${lender} hasn’t finished with your application yet. Sometimes this takes a little longer.`}
        </p>
        <p>Please wait a moment, then tap Try again. Nothing will be sent twice, and you don’t need to start over.</p>
        <div className="actions">
          <Button onClick={onRetry} disabled={busy}>
            Try again
          </Button>
        </div>
      </Page>
    </div>
  );
}
