import { useEffect, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { Page } from '@/components/Page';
import { Failure } from '@/components/Failure';
import { formatCents } from '@/lib/money';
import { getApplication, retryRecords, type OfficeApplicationDetail } from './api/applications';
import { OfficeError } from './api/http';
import { endedBy401, words } from './auth';
import { SignedInOnly } from './OfficeFrame';
import { None, StatusBadge } from './DayTable';
import { dateTimeOf, eventWords, EXPERIENCE_WORDS, lenderAnswer, patientName, planWords, recordsWords } from './words';
import { Button } from '@/components/Button';
import type { OfficeSession } from './api/session';
import { ChangeCase, MoneyLine, moneyWords } from './money';
import { AmountChange } from './AmountChange';

/**
 * OfficeApplicationPage is /office/applications/:id: one application of the
 * office with each lender's answer and its history. The server answers 404
 * for another office's application as for an unknown one, and this screen
 * says the same for both.
 */
export function OfficeApplicationPage() {
  return <SignedInOnly>{(session) => <Details session={session} />}</SignedInOnly>;
}

type Load = { state: 'loading' } | { state: 'missing' } | { state: 'failed'; message: string } | { state: 'ok'; app: OfficeApplicationDetail };

function Details({ session }: { session: OfficeSession }) {
  const { id = '' } = useParams();
  const from = useLocation().state as { listSearch?: string } | null;
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  // Read again after a change with the lender, so its money line shows it.
  const [reads, setReads] = useState(0);
  useEffect(() => {
    let live = true;
    getApplication(id).then(
      (app) => live && setLoad({ state: 'ok', app }),
      (e: unknown) => {
        if (!live || endedBy401(e)) return;
        setLoad(e instanceof OfficeError && e.status === 404 ? { state: 'missing' } : { state: 'failed', message: words(e) });
      },
    );
    return () => {
      live = false;
    };
  }, [id, reads]);

  const back = (
    <p className="office-back">
      <Link to={`/office${from?.listSearch ?? ''}`}>Back to the list</Link>
    </p>
  );
  if (load.state === 'loading') return <Page title="Application" lead="Loading the application…" />;
  if (load.state === 'missing') {
    return (
      <>
        {back}
        <Page title="Application not found" lead="There is no such application at your office." />
      </>
    );
  }
  if (load.state === 'failed') {
    return (
      <>
        {back}
        <Page title="Application">
          <Failure message={load.message} />
        </Page>
      </>
    );
  }
  const a = load.app;
  return (
    <>
      {back}
      <Page title={patientName(a) || 'Application'}>
        <div className="review office-facts">
          <dl>
            {a.reference ? (
              <>
                <dt>Reference</dt>
                <dd>{a.reference}</dd>
              </>
            ) : null}
            <dt>Status</dt>
            <dd>
              <StatusBadge status={a.status} />
            </dd>
            <dt>Started</dt>
            <dd>{dateTimeOf(a.createdAt)}</dd>
            <dt>Where</dt>
            <dd>{EXPERIENCE_WORDS[a.experienceType]}</dd>
            <dt>Treatment amount</dt>
            <dd>{formatCents(a.purchaseAmountCents)}</dd>
            <dt>Approved</dt>
            <dd>{a.approvedAmountCents ? formatCents(a.approvedAmountCents) : <None />}</dd>
            <dt>Plan</dt>
            <dd>{a.plan ? `${a.plan.lenderName}: ${planWords(a.plan)}, financing ${formatCents(a.plan.amountFinancedCents)}` : <None />}</dd>
            <dt>Signed</dt>
            <dd>{a.signed ? 'Yes' : 'No'}</dd>
            <dt>Completed</dt>
            <dd>{a.completed ? 'Yes' : 'No'}</dd>
            <dt>Finished</dt>
            <dd>{a.finishedAt ? dateTimeOf(a.finishedAt) : 'Not yet'}</dd>
            {a.money ? (
              <>
                <dt>Money</dt>
                <dd>{moneyWords(a.money)}</dd>
              </>
            ) : null}
            {a.records ? (
              <>
                <dt>Open Dental</dt>
                <dd>{recordsWords(a.records)}</dd>
              </>
            ) : null}
          </dl>
        </div>
        {a.records?.state === 'failed' || a.records?.state === 'waiting' ? (
          <RetryRecords id={a.id} csrf={session.csrfToken} onDone={() => setReads((n) => n + 1)} />
        ) : null}

        <h2>Lenders</h2>
        {a.lenders.length ? (
          <ul className="office-list">
            {a.lenders.map((l) => (
              <li key={l.providerKey}>
                <strong>{l.lenderName}</strong>: {lenderAnswer(l)}
                {l.approvedAmountCents ? `, for ${formatCents(l.approvedAmountCents)}` : ''}
                <span className="office-sub">As of {dateTimeOf(l.updatedAt)}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p>No lender has been asked yet.</p>
        )}

        <h2>Money</h2>
        <MoneyLine line={a.moneyLine} />
        {session.permissions.includes('change_cases') ? (
          <>
            <ChangeCase app={a} csrf={session.csrfToken} onChanged={() => setReads((n) => n + 1)} />
            <AmountChange app={a} csrf={session.csrfToken} onChanged={() => setReads((n) => n + 1)} />
          </>
        ) : null}

        <h2>History</h2>
        {a.events.length ? (
          <ol className="office-history">
            {a.events.map((e, i) => (
              <li key={`${i}-${e.type}`}>
                <time dateTime={e.at}>{dateTimeOf(e.at)}</time> <span>{eventWords(e)}</span>
              </li>
            ))}
          </ol>
        ) : (
          <p>Nothing has happened yet.</p>
        )}
      </Page>
    </>
  );
}

/** RetryRecords tries the case's posts to Open Dental again at once. */
function RetryRecords({ id, csrf, onDone }: { id: string; csrf: string; onDone: () => void }) {
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  async function retry() {
    setBusy(true);
    setFailure('');
    try {
      await retryRecords(id, csrf);
      onDone();
    } catch (e) {
      if (!endedBy401(e)) setFailure(words(e));
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="actions">
      <Button variant="secondary" disabled={busy} aria-disabled={busy} onClick={() => void retry()}>
        Retry posting to Open Dental
      </Button>
      <Failure message={failure} />
    </div>
  );
}
