import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/Button';
import { Failure } from '@/components/Failure';
import { Page } from '@/components/Page';
import { TextField } from '@/components/TextField';
import { OfficeError } from './api/http';
import { connectRecords, disconnectRecords, getRecords, type OfficeRecords } from './api/records';
import type { OfficeSession } from './api/session';
import { endedBy401, words } from './auth';
import { SignedInOnly } from './OfficeFrame';
import { NOT_ALLOWED } from './staffWords';
import { untilOf } from './words';

/*
 * Practice records (docs/practice-records.md): the office manager connects
 * the office's Open Dental with the customer key the practice made for
 * Chairside, and chooses when a financed case's payment goes on the
 * patient's ledger. The key is checked before it is kept, and never shown
 * again (only its last characters).
 */

const POST_WORDS = {
  signed: 'When the patient signs',
  funded: 'When the lender funds the case',
} as const;

const STATE_WORDS: Record<string, string> = {
  connected: 'Connected',
  refused: 'Open Dental refused Chairside’s key. Check the key in Open Dental (Setup, Advanced Setup, API) and connect again.',
  unavailable: 'Open Dental did not answer. Check that the practice’s eConnector is running.',
};

/** OfficeRecordsPage is /office/records. */
export function OfficeRecordsPage() {
  return <SignedInOnly>{(session) => <Records session={session} />}</SignedInOnly>;
}

function Records({ session }: { session: OfficeSession }) {
  const allowed = session.permissions.includes('manage_staff');
  const [records, setRecords] = useState<OfficeRecords | null>(null);
  const [failure, setFailure] = useState('');
  const [notice, setNotice] = useState('');
  const noticeRef = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (!allowed) return;
    getRecords().then(setRecords, (e: unknown) => {
      if (!endedBy401(e)) setFailure(words(e));
    });
  }, [allowed]);

  useEffect(() => {
    if (notice) noticeRef.current?.focus();
  }, [notice]);

  const back = (
    <p className="office-back">
      <Link to="/office">Back to the list</Link>
    </p>
  );
  if (!allowed) {
    return (
      <>
        {back}
        <Page title="Practice records">
          <p className="notice notice--warn">{NOT_ALLOWED}</p>
        </Page>
      </>
    );
  }

  async function disconnect() {
    setFailure('');
    try {
      await disconnectRecords(session.csrfToken);
      setRecords((r) => (r ? { available: r.available, connected: false } : r));
      setNotice('Open Dental is disconnected. Chairside no longer reads or writes your records.');
    } catch (e) {
      if (!endedBy401(e)) setFailure(words(e));
    }
  }

  return (
    <>
      {back}
      <Page title="Practice records" lead="Connect your Open Dental: find the patient you invite there, and the financing goes on their ledger.">
        {notice ? (
          <p className="notice notice--ok" role="status" tabIndex={-1} ref={noticeRef}>
            {notice}
          </p>
        ) : null}
        <Failure message={failure} />
        {records === null ? (
          failure ? null : (
            <p className="muted">Loading…</p>
          )
        ) : !records.available ? (
          <p className="notice notice--warn">This server cannot connect practice records yet: its operator must set Chairside’s Open Dental key.</p>
        ) : (
          <>
            {records.connected ? (
              <section aria-labelledby="records-now">
                <h2 id="records-now">Open Dental</h2>
                <div className="review office-facts">
                  <dl>
                    <dt>Status</dt>
                    <dd>{STATE_WORDS[records.state ?? 'connected'] ?? records.state}</dd>
                    <dt>Customer key</dt>
                    <dd>Ending in {records.keyEnd}</dd>
                    <dt>The payment goes on the ledger</dt>
                    <dd>{POST_WORDS[records.postOn ?? 'signed']}</dd>
                    {records.checkedAt ? (
                      <>
                        <dt>Last checked</dt>
                        <dd>{untilOf(records.checkedAt)}</dd>
                      </>
                    ) : null}
                  </dl>
                </div>
                <div className="actions">
                  <Button variant="secondary" onClick={() => void disconnect()}>
                    Disconnect Open Dental
                  </Button>
                </div>
              </section>
            ) : null}
            <ConnectForm
              csrf={session.csrfToken}
              connected={records.connected}
              postOn={records.postOn ?? 'signed'}
              onConnected={(r) => {
                setRecords(r);
                setNotice('Open Dental is connected. The front desk can now find patients when inviting them.');
              }}
            />
          </>
        )}
        <section aria-labelledby="records-before">
          <h2 id="records-before">Before you connect</h2>
          <ul>
            <li>In Open Dental, go to Setup, Advanced Setup, API: enable the API and add a customer key for Chairside.</li>
            <li>Keep the eConnector running: Chairside reaches your Open Dental through it.</li>
            <li>Choose the payment type for financing (for example “Patient financing”) as the API’s payment type.</li>
            <li>
              Chairside reads patients’ names, dates of birth, contact details and saved treatment plans, never an SSN. Sign a business associate
              agreement with whoever runs Chairside for you first.
            </li>
          </ul>
        </section>
      </Page>
    </>
  );
}

function ConnectForm({
  csrf,
  connected,
  postOn: initialPostOn,
  onConnected,
}: {
  csrf: string;
  connected: boolean;
  postOn: 'signed' | 'funded';
  onConnected: (r: OfficeRecords) => void;
}) {
  const [key, setKey] = useState('');
  const [postOn, setPostOn] = useState<'signed' | 'funded'>(initialPostOn);
  const [keyError, setKeyError] = useState('');
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const keyRef = useRef<HTMLInputElement | null>(null);

  async function submit(ev: FormEvent) {
    ev.preventDefault();
    setFailure('');
    setKeyError('');
    if (!key.trim()) {
      setKeyError('Enter the customer key Open Dental made for Chairside.');
      keyRef.current?.focus();
      return;
    }
    setBusy(true);
    try {
      onConnected(await connectRecords({ customerKey: key.trim(), postOn }, csrf));
      setKey('');
    } catch (e) {
      if (endedBy401(e)) return;
      const fe = e instanceof OfficeError ? e.fieldErrors.find((f) => f.field === 'customerKey') : undefined;
      if (fe) {
        setKeyError(fe.message);
        keyRef.current?.focus();
      } else setFailure(words(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form noValidate onSubmit={submit} aria-labelledby="records-connect">
      <h2 id="records-connect">{connected ? 'Connect again with a new key' : 'Connect Open Dental'}</h2>
      <TextField
        id="records-key"
        label="Customer key"
        hint="The key Open Dental shows for Chairside under Setup, Advanced Setup, API. It is checked with Open Dental before it is kept."
        value={key}
        error={keyError}
        inputRef={(el) => {
          keyRef.current = el;
        }}
        autoComplete="off"
        onChange={setKey}
      />
      <fieldset className="field form-section">
        <legend className="label office-legend">When does the payment go on the patient’s ledger?</legend>
        <div className="radios">
          {(['signed', 'funded'] as const).map((v) => (
            <label key={v}>
              <input type="radio" name="postOn" value={v} checked={postOn === v} onChange={() => setPostOn(v)} />
              {POST_WORDS[v]}
            </label>
          ))}
        </div>
      </fieldset>
      <Failure message={failure} />
      <div className="actions">
        <Button type="submit" disabled={busy} aria-disabled={busy}>
          {busy ? 'Checking the key with Open Dental…' : 'Check and connect'}
        </Button>
      </div>
    </form>
  );
}
