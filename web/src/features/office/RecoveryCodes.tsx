import { useState } from 'react';
import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { Failure } from '@/components/Failure';
import { currentSession } from './api/session';
import { signedIn, signedOut, words } from './auth';

/**
 * RecoveryCodes shows the recovery codes once, right after two-step
 * sign-in is turned on: the server keeps hashes only. "I saved my codes"
 * asks for the session again, now past its second step (and with its
 * permissions), and goes on.
 */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);

  async function done() {
    setBusy(true);
    setFailure('');
    try {
      const s = await currentSession();
      if (s) signedIn(s);
      else signedOut();
      onDone();
    } catch (e) {
      setFailure(words(e));
      setBusy(false);
    }
  }

  return (
    <Page title="Save your recovery codes" lead="Two-step sign-in is on.">
      <p>
        If your phone is lost or the app is gone, sign in with one of these codes instead of the app’s code. Each code works once. Write them down or
        print them, and keep them away from your phone: they will not be shown again.
      </p>
      <ul className="office-codes" aria-label="Recovery codes">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ul>
      <Failure message={failure} />
      <div className="actions">
        <Button variant="secondary" onClick={() => window.print()}>
          Print
        </Button>
        <Button onClick={() => void done()} disabled={busy} aria-disabled={busy}>
          I saved my codes
        </Button>
      </div>
    </Page>
  );
}
