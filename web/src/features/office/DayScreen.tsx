import { useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Page } from '@/components/Page';
import { Failure } from '@/components/Failure';
import { parseIsoDate } from '@/lib/dates';
import { browserTimeZone } from '@/lib/api/http';
import type { OfficeSession } from './api/session';
import { csvUrl, dayQueryString, resendInvite, retryRecords, type OfficeApplication, type OfficeApplicationStatus } from './api/applications';
import { endedBy401, words } from './auth';
import { CancelInviteDialog } from './CancelInviteDialog';
import { DayTable } from './DayTable';
import { useApplicationsFeed } from './useApplicationsFeed';
import { useToday } from './useToday';
import { dayWords, patientName, STATUSES, STATUS_WORDS } from './words';

/*
 * The office's day (docs/behaviour.md, "The office side"): invite a
 * patient, and the day's applications and invitations, live. The filters
 * are in the address (?day=&status=), so the way back from an
 * application's details lands on the same list.
 */

const isStatus = (s: string | null): s is OfficeApplicationStatus => STATUSES.includes(s as OfficeApplicationStatus);

export function DayScreen({ session }: { session: OfficeSession }) {
  const [params, setParams] = useSearchParams();
  const todayIso = useToday();
  const dayParam = params.get('day') ?? '';
  const day = parseIsoDate(dayParam) && /^\d{4}-\d{2}-\d{2}$/.test(dayParam) ? dayParam : todayIso;
  const statusParam = params.get('status');
  const status = isStatus(statusParam) ? statusParam : '';
  const qs = dayQueryString({ day, tz: browserTimeZone(), status });
  const feed = useApplicationsFeed(qs);
  const [canceling, setCanceling] = useState<OfficeApplication | null>(null);
  const [canceled, setCanceled] = useState('');
  const canceledRef = useRef<HTMLParagraphElement>(null);
  const [resendFailure, setResendFailure] = useState('');

  /** retry makes a case's posts to Open Dental due again; the row follows through the live list. */
  async function retry(row: OfficeApplication) {
    setCanceled('');
    setResendFailure('');
    try {
      await retryRecords(row.id, session.csrfToken);
      setCanceled('Posting to Open Dental again.');
      feed.refresh();
    } catch (err) {
      if (!endedBy401(err)) setResendFailure(words(err));
    }
  }

  /** resend sends an invitation's link again; the row follows the new messages through the live list. */
  async function resend(row: OfficeApplication) {
    setCanceled('');
    setResendFailure('');
    try {
      const sent = await resendInvite(row.id, session.csrfToken);
      const name = patientName(row);
      setCanceled(`The link${name ? ` for ${name}` : ''} is being sent again to ${sent.map((s) => s.to).join(' and ')}.`);
      feed.refresh();
    } catch (err) {
      if (!endedBy401(err)) setResendFailure(words(err));
    }
  }

  /** setFilter keeps the other filter and leaves today and All out of the address. */
  function setFilter(next: { day?: string; status?: string }) {
    const d = next.day ?? day;
    const s = next.status ?? status;
    const p = new URLSearchParams();
    if (d && d !== todayIso) p.set('day', d);
    if (s) p.set('status', s);
    setCanceled('');
    setParams(p, { replace: true });
  }

  const when = day === todayIso ? `today, ${dayWords(day)}` : dayWords(day);
  const caption = `Applications and invitations of ${when}${status ? `: ${STATUS_WORDS[status]} only` : ''}`;
  const listSearch = params.toString() ? `?${params.toString()}` : '';

  return (
    <Page title={session.office.name} lead="Invite a patient, and follow the day’s applications as they happen.">
      <div className="actions office-invite-action">
        <Link className="btn" to="/office/invite">
          Invite a patient
        </Link>
      </div>

      <section className="office-day" aria-labelledby="office-day-heading">
        <h2 id="office-day-heading">The day’s applications</h2>
        <div className="office-filters">
          <div className="field">
            <label className="label" htmlFor="office-day">
              Day
            </label>
            <input
              id="office-day"
              className="input"
              type="date"
              value={day}
              max="2099-12-31"
              onChange={(e) => e.target.value && setFilter({ day: e.target.value })}
            />
          </div>
          <div className="field">
            <label className="label" htmlFor="office-status">
              Status
            </label>
            <select id="office-status" className="select" value={status} onChange={(e) => setFilter({ status: e.target.value })}>
              <option value="">All</option>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {STATUS_WORDS[s]}
                </option>
              ))}
            </select>
          </div>
          <div className="field office-csv">
            <a className="btn btn--secondary" href={csvUrl(qs)} download>
              Download CSV
            </a>
          </div>
        </div>

        <p className="visually-hidden" role="status" aria-live="polite">
          {feed.updates ? `List updated${feed.updates % 2 ? '' : '\u00a0'}` : ''}
        </p>
        {canceled ? (
          <p className="notice notice--ok" role="status" tabIndex={-1} ref={canceledRef}>
            {canceled}
          </p>
        ) : null}
        <Failure message={feed.failure || resendFailure} />
        {feed.rows === null ? (
          <p className="muted">Loading the list…</p>
        ) : feed.rows.length === 0 ? (
          <p className="office-empty">
            {status ? `Nothing with the status “${STATUS_WORDS[status]}” on ${when}.` : `No applications or invitations on ${when} yet.`}
          </p>
        ) : (
          <DayTable
            caption={caption}
            rows={feed.rows}
            listSearch={listSearch}
            onCancel={setCanceling}
            onResend={(r) => void resend(r)}
            onRetryRecords={(r) => void retry(r)}
          />
        )}
      </section>

      {canceling ? (
        <CancelInviteDialog
          inviteId={canceling.id}
          name={patientName(canceling)}
          csrf={session.csrfToken}
          onClose={() => setCanceling(null)}
          onCanceled={() => {
            const name = patientName(canceling);
            setCanceling(null);
            setCanceled(`${name ? `The invitation for ${name} is` : 'The invitation is'} canceled. The link no longer works.`);
            feed.refresh();
            // The row's Cancel button is gone: the message takes the focus, once the dialog has handed it back.
            setTimeout(() => canceledRef.current?.focus(), 0);
          }}
        />
      ) : null}
    </Page>
  );
}
