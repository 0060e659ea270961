import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Page } from '@/components/Page';
import { Failure } from '@/components/Failure';
import { browserTimeZone } from '@/lib/api/http';
import type { OfficeSession } from './api/session';
import { auditCsvUrl, auditLog, auditQueryString, forbidden, type OfficeAuditRow } from './api/staff';
import { endedBy401, words } from './auth';
import { SignedInOnly } from './OfficeFrame';
import { auditWords, NOT_ALLOWED } from './staffWords';
import { useToday } from './useToday';
import { dayWords, timeOf } from './words';
import { OfficeTable } from './OfficeTable';

/*
 * The office's audit log (docs/behaviour.md, "Staff and roles"), for
 * managers and group administrators: who did what on one day, newest
 * first, in the browser's time zone like the day's list, and the same as
 * a CSV file. Reading it is recorded too.
 */

/** OfficeAuditPage is /office/audit. */
export function OfficeAuditPage() {
  return <SignedInOnly>{(session) => <Audit session={session} />}</SignedInOnly>;
}

function Audit({ session }: { session: OfficeSession }) {
  const allowed = session.permissions.includes('manage_staff');
  const todayIso = useToday();
  const [picked, setPicked] = useState('');
  const day = picked || todayIso;
  const qs = auditQueryString(day, browserTimeZone());
  const [data, setData] = useState<{ qs: string; rows: OfficeAuditRow[] } | null>(null);
  const [failure, setFailure] = useState('');
  const [refused, setRefused] = useState(!allowed);

  useEffect(() => {
    if (!allowed) return;
    let live = true;
    setFailure('');
    auditLog(qs).then(
      (log) => live && setData({ qs, rows: log.entries }),
      (e: unknown) => {
        if (!live || endedBy401(e)) return;
        if (forbidden(e)) setRefused(true);
        else setFailure(words(e));
      },
    );
    return () => {
      live = false;
    };
  }, [allowed, qs]);

  const rows = data?.qs === qs ? data.rows : null;
  const when = day === todayIso ? `today, ${dayWords(day)}` : dayWords(day);
  return (
    <>
      <p className="office-back">
        <Link to="/office">Back to the list</Link>
      </p>
      <Page title="Audit log" lead={refused ? undefined : `Who did what at ${session.office.name}, newest first.`}>
        {refused ? (
          <p className="notice notice--warn">{NOT_ALLOWED}</p>
        ) : (
          <>
            <div className="office-filters">
              <div className="field">
                <label className="label" htmlFor="audit-day">
                  Day
                </label>
                <input
                  id="audit-day"
                  className="input"
                  type="date"
                  value={day}
                  max="2099-12-31"
                  onChange={(e) => e.target.value && setPicked(e.target.value === todayIso ? '' : e.target.value)}
                />
              </div>
              <div className="field office-csv">
                <a className="btn btn--secondary" href={auditCsvUrl(qs)} download>
                  Download CSV
                </a>
              </div>
            </div>
            <Failure message={failure} />
            {rows === null ? (
              failure ? null : (
                <p className="muted">Loading the log…</p>
              )
            ) : rows.length === 0 ? (
              <p className="office-empty">Nothing recorded on {when}.</p>
            ) : (
              <AuditTable caption={`Audit log of ${when}`} rows={rows} />
            )}
          </>
        )}
      </Page>
    </>
  );
}

function AuditTable({ caption, rows }: { caption: string; rows: OfficeAuditRow[] }) {
  return (
    <OfficeTable id="audit-table" caption={caption} columns={['Time', 'Who', 'Action', 'Address', 'Details']}>
      {rows.map((r, i) => (
        <tr key={`${r.at}-${i}`}>
          <td>
            <time dateTime={r.at}>{timeOf(r.at)}</time>
          </td>
          <td>{r.email || <span className="muted">Unknown email</span>}</td>
          <td>{auditWords(r.action)}</td>
          <td>{r.ip}</td>
          <td>{r.details}</td>
        </tr>
      ))}
    </OfficeTable>
  );
}
