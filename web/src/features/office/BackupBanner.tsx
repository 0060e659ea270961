import { useEffect, useState } from 'react';
import { getBackup, type OfficeBackup } from './api/backup';
import { endedBy401 } from './auth';
import { dateTimeOf } from './words';

/*
 * The office manager's word that the server's backup of its database is
 * behind (api/openapi.yaml, /office/backup): asked when the frame shows and
 * every minute after, not while the tab is hidden. It says nothing unless
 * the server says behind, and nothing when the call fails: it is background
 * information, never an error of the screen. A polite status rather than an
 * alert, since it comes back with every poll. The status is there only
 * while the backup is behind, as the screens' own notices are (a screen's
 * "Done." is the one status it has otherwise).
 */

export const BACKUP_POLL_MS = 60_000;

/** BackupBanner is for staff with manage_staff only (the call is refused to anyone else): the frame shows it to them alone. */
export function BackupBanner() {
  const [backup, setBackup] = useState<OfficeBackup | null>(null);

  useEffect(() => {
    let live = true;
    let inFlight = false;
    const ask = async () => {
      if (inFlight) return;
      inFlight = true;
      try {
        const b = await getBackup();
        if (live) setBackup(b);
      } catch (e) {
        // An ended session sends every screen to the sign-in form, as any office call's 401 does; anything else shows nothing.
        if (live && !endedBy401(e)) setBackup(null);
      } finally {
        inFlight = false;
      }
    };
    void ask();
    const timer = setInterval(() => {
      if (!document.hidden) void ask();
    }, BACKUP_POLL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, []);

  return backup?.state === 'behind' ? <Behind backup={backup} /> : null;
}

function Behind({ backup }: { backup: OfficeBackup }) {
  const where = backup.replica || 'the backup';
  return (
    <div className="office-backup notice notice--warn" role="status">
      <p>
        <strong>The backup of this office’s records is behind.</strong>{' '}
        {backup.lastShipped ? `The last copy reached ${where} on ${dateTimeOf(backup.lastShipped)}.` : `No copy has reached ${where} yet.`}
      </p>
      <p>Tell whoever looks after this computer; until it is fixed, a failed disk could lose the records made since.</p>
      {backup.failing ? (
        <details>
          <summary>What the server says</summary>
          <p>
            {backup.failingSince ? `Failing since ${dateTimeOf(backup.failingSince)}: ` : null}
            <code>{backup.failing}</code>
          </p>
        </details>
      ) : null}
    </div>
  );
}
