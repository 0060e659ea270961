import { useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/Button';
import { Failure } from '@/components/Failure';
import { TextField } from '@/components/TextField';
import { formatCents } from '@/lib/money';
import { OfficeError } from './api/http';
import { findRecordPatients, recordPatient, type RecordPatient, type RecordPatientDetail, type RecordPlan } from './api/records';
import { endedBy401, words } from './auth';

/*
 * Finding the patient in the office's Open Dental (docs/practice-records.md)
 * before inviting them: by last name or chart number, then one of their
 * saved treatment plans, whose patient share (after the insurance estimate)
 * the invitation proposes to finance. The invitation is then prefilled
 * from the record; the SSN is never read.
 */

/** bornOn shows yyyy-mm-dd as the desk reads it. */
function bornOn(iso?: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso ?? '');
  return m ? `born ${m[2]}/${m[3]}/${m[1]}` : 'no date of birth';
}

const fullName = (p: RecordPatient) => [p.firstName, p.middleInitial ? `${p.middleInitial}.` : '', p.lastName].filter(Boolean).join(' ');

/** planWords: "Crowns and root canal: $1,867.50 for the patient (treatment $3,375.00, insurance $1,487.50)". */
export function planWords(p: RecordPlan): string {
  const t = p.totals;
  const parts = [`treatment ${formatCents(t.feeCents)}`, `insurance ${formatCents(t.insuranceCents)}`];
  if (t.discountCents) parts.push(`discounts ${formatCents(t.discountCents)}`);
  return `${p.heading}: ${formatCents(t.patientCents)} for the patient (${parts.join(', ')})${p.signed ? ', signed' : ''}`;
}

export function RecordFinder({ onPick }: { onPick: (patient: RecordPatient, plan: RecordPlan | null) => void }) {
  const [query, setQuery] = useState('');
  const [birthdate, setBirthdate] = useState('');
  const [queryError, setQueryError] = useState('');
  const [found, setFound] = useState<RecordPatient[] | null>(null);
  const [detail, setDetail] = useState<RecordPatientDetail | null>(null);
  const [planId, setPlanId] = useState('');
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const queryRef = useRef<HTMLInputElement | null>(null);

  async function run<T>(call: () => Promise<T>, then: (v: T) => void) {
    setFailure('');
    setBusy(true);
    try {
      then(await call());
    } catch (e) {
      if (endedBy401(e)) return;
      const fe = e instanceof OfficeError ? e.fieldErrors[0] : undefined;
      if (fe) {
        setQueryError(fe.message);
        queryRef.current?.focus();
      } else setFailure(words(e));
    } finally {
      setBusy(false);
    }
  }

  function search(ev: FormEvent) {
    ev.preventDefault();
    setQueryError('');
    setDetail(null);
    const q = query.trim();
    if (!q) {
      setQueryError('Enter the last name or the chart number.');
      queryRef.current?.focus();
      return;
    }
    const byChart = /^\d+$/.test(q);
    void run(() => findRecordPatients(byChart ? { chart: q } : { lastName: q, birthdate }), setFound);
  }

  function open(p: RecordPatient) {
    void run(
      () => recordPatient(p.id),
      (d) => {
        setDetail(d);
        setPlanId(d.plans[0]?.id ?? '');
      },
    );
  }

  return (
    <section className="office-records-find" aria-labelledby="records-find-heading">
      <h2 id="records-find-heading">Find the patient in Open Dental</h2>
      <form noValidate onSubmit={search} className="grid-2">
        <TextField
          id="records-query"
          label="Last name or chart number"
          value={query}
          error={queryError}
          inputRef={(el) => {
            queryRef.current = el;
          }}
          onChange={setQuery}
        />
        <TextField id="records-birthdate" label="Date of birth (optional)" type="date" value={birthdate} onChange={setBirthdate} />
        <div className="actions">
          <Button type="submit" variant="secondary" disabled={busy} aria-disabled={busy}>
            {busy && !detail ? 'Looking in Open Dental…' : 'Find'}
          </Button>
        </div>
      </form>
      <Failure message={failure} />
      {found && !detail ? (
        found.length === 0 ? (
          <p role="status">No patient in Open Dental matches. Check the spelling, or type the patient’s details below.</p>
        ) : (
          <ul className="office-records-found" aria-label="Patients found">
            {found.map((p) => (
              <li key={p.id}>
                <button type="button" className="btn btn--secondary" onClick={() => open(p)} disabled={busy}>
                  {fullName(p)}, {bornOn(p.birthdate)}, chart {p.id}
                </button>
              </li>
            ))}
          </ul>
        )
      ) : null}
      {detail ? (
        <div className="office-records-plans">
          <p>
            <strong>{fullName(detail.patient)}</strong>, {bornOn(detail.patient.birthdate)}, chart {detail.patient.id}
          </p>
          <fieldset className="field form-section">
            <legend className="label office-legend">Which treatment plan?</legend>
            <div className="radios radios--stacked">
              {detail.plans.map((p) => (
                <label key={p.id}>
                  <input type="radio" name="recordPlan" value={p.id} checked={planId === p.id} onChange={() => setPlanId(p.id)} />
                  {planWords(p)}
                </label>
              ))}
              <label>
                <input type="radio" name="recordPlan" value="" checked={planId === ''} onChange={() => setPlanId('')} />
                No saved plan: I will type the amount
              </label>
            </div>
          </fieldset>
          <div className="actions">
            <Button onClick={() => onPick(detail.patient, detail.plans.find((p) => p.id === planId) ?? null)}>Use for the invitation</Button>
            <Button variant="secondary" onClick={() => setDetail(null)}>
              Back to the patients found
            </Button>
          </div>
        </div>
      ) : null}
    </section>
  );
}
