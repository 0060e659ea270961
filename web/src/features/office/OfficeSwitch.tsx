import { useState } from 'react';
import { Failure } from '@/components/Failure';
import type { OfficeSession } from './api/session';
import { switchOffice } from './api/staff';
import { endedBy401, signedIn, words } from './auth';

/**
 * OfficeSwitch is a group administrator's choice of office: the server
 * moves the session, and its answer replaces the session, so the screen
 * below starts afresh for the new office (SignedInOnly).
 */
export function OfficeSwitch({ session }: { session: OfficeSession }) {
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);

  async function change(entityKey: string) {
    if (busy || entityKey === session.office.entityKey) return;
    setBusy(true);
    setFailure('');
    try {
      signedIn(await switchOffice(entityKey, session.csrfToken));
    } catch (e) {
      if (endedBy401(e)) return;
      setFailure(words(e));
    }
    setBusy(false);
  }

  return (
    <>
      <div className="office-switch">
        <label className="label" htmlFor="office-switch">
          Office
        </label>
        <select id="office-switch" className="select" value={session.office.entityKey} aria-busy={busy} onChange={(e) => void change(e.target.value)}>
          {session.offices.map((o) => (
            <option key={o.entityKey} value={o.entityKey}>
              {o.name}
            </option>
          ))}
        </select>
      </div>
      <Failure message={failure} />
    </>
  );
}
