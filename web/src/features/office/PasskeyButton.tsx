import { useState } from 'react';
import { Button } from '@/components/Button';
import { Failure } from '@/components/Failure';
import { passkeysHere } from './api/passkey';
import { words } from './auth';

/**
 * PasskeyButton runs one passkey ceremony (api/passkey.ts) and hands its
 * result on; the browser's own window does the asking. It shows nothing
 * where passkeys cannot work: a browser without them, an address that is
 * a number, or a server that says so (`available` false).
 */
export function PasskeyButton<T>({
  label,
  available = true,
  run,
  onDone,
}: {
  label: string;
  available?: boolean;
  run: () => Promise<T>;
  onDone: (result: T) => void;
}) {
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  if (!available || !passkeysHere()) return null;

  async function go() {
    setFailure('');
    setBusy(true);
    try {
      const result = await run();
      setBusy(false);
      onDone(result);
    } catch (e) {
      setFailure(words(e));
      setBusy(false);
    }
  }

  return (
    <div className="office-passkey">
      <Failure message={failure} />
      <div className="actions">
        <Button variant="secondary" onClick={() => void go()} disabled={busy} aria-disabled={busy}>
          {label}
        </Button>
      </div>
    </div>
  );
}
