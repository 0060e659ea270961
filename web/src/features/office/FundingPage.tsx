import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Page } from '@/components/Page';
import { Failure } from '@/components/Failure';
import { browserTimeZone } from '@/lib/api/http';
import { formatCents } from '@/lib/money';
import type { OfficeSession } from './api/session';
import {
  fundingCsvUrl,
  fundingQueryString,
  getFunding,
  type FundingPeriod,
  type OfficeDeposit,
  type OfficeFunding,
  type OfficeFundingAlert,
  type OfficeFundingChange,
  type OfficeFundingTotals,
} from './api/funding';
import { endedBy401, words } from './auth';
import { SignedInOnly } from './OfficeFrame';
import { OfficeTable } from './OfficeTable';
import { useToday } from './useToday';
import { dateTimeOf, dayWords, patientName } from './words';
import { rateWords } from './money';

/*
 * The funding screen (docs/behaviour.md, "After the signature"): what the
 * lenders have paid the practice, and will, for a day, a week or a month —
 * each deposit with the cases it carries, so the practice can match it to
 * its bank statement — the cases a lender holds back, and the cases to look
 * at. The same as a CSV file for the bookkeeping.
 */

/** OfficeFundingPage is /office/funding. */
export function OfficeFundingPage() {
  return <SignedInOnly>{(session) => <FundingScreen session={session} />}</SignedInOnly>;
}

const PERIOD_WORDS: Record<FundingPeriod, string> = { day: 'Day', week: 'Week', month: 'Month' };

/** ALERT_WORDS say what a case to look at is, in the office's words. */
export const ALERT_WORDS: Record<OfficeFundingAlert['kind'], string> = {
  late_funding: 'Not funded yet: later than the lender said',
  refund_refused: 'The lender refused a refund',
  deposit_mismatch: 'A deposit that does not match its cases: check it against the bank',
};

function FundingScreen({ session }: { session: OfficeSession }) {
  const todayIso = useToday();
  const [picked, setPicked] = useState('');
  const [period, setPeriod] = useState<FundingPeriod>('day');
  const day = picked || todayIso;
  const qs = fundingQueryString(day, browserTimeZone(), period);
  const [data, setData] = useState<{ qs: string; funding: OfficeFunding } | null>(null);
  const [failure, setFailure] = useState('');

  useEffect(() => {
    let live = true;
    setFailure('');
    getFunding(qs).then(
      (funding) => live && setData({ qs, funding }),
      (e: unknown) => {
        if (live && !endedBy401(e)) setFailure(words(e));
      },
    );
    return () => {
      live = false;
    };
  }, [qs]);

  const funding = data?.qs === qs ? data.funding : null;
  return (
    <>
      <p className="office-back">
        <Link to="/office">Back to the list</Link>
      </p>
      <Page title="Funding" lead={`What the lenders pay ${session.office.name}, deposit by deposit.`}>
        <div className="office-filters">
          <div className="field">
            <label className="label" htmlFor="funding-period">
              Period
            </label>
            <select id="funding-period" className="input" value={period} onChange={(e) => setPeriod(e.target.value as FundingPeriod)}>
              {(Object.keys(PERIOD_WORDS) as FundingPeriod[]).map((p) => (
                <option key={p} value={p}>
                  {PERIOD_WORDS[p]}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label className="label" htmlFor="funding-day">
              {period === 'day' ? 'Day' : 'Any day in it'}
            </label>
            <input
              id="funding-day"
              className="input"
              type="date"
              value={day}
              max="2099-12-31"
              onChange={(e) => e.target.value && setPicked(e.target.value === todayIso ? '' : e.target.value)}
            />
          </div>
          <div className="field office-csv">
            <a className="btn btn--secondary" href={fundingCsvUrl(qs)} download>
              Download CSV
            </a>
          </div>
        </div>
        <Failure message={failure} />
        {funding === null ? failure ? null : <p className="muted">Loading the deposits…</p> : <FundingBody funding={funding} />}
      </Page>
    </>
  );
}

/** periodWords names the period shown: one day, or its first and last. */
function periodWords(f: OfficeFunding): string {
  return f.from === f.to ? dayWords(f.from) : `${dayWords(f.from)} to ${dayWords(f.to)}`;
}

function FundingBody({ funding }: { funding: OfficeFunding }) {
  const when = periodWords(funding);
  return (
    <>
      <Alerts alerts={funding.alerts} />
      <h2>{when}</h2>
      <dl className="office-totals">
        <Total label="Deposited" t={funding.sent} />
        <Total label="Expected" t={funding.expected} />
      </dl>
      {funding.deposits.length === 0 ? (
        <p className="office-empty">
          No deposits {funding.period === 'day' ? 'on' : 'from'} {when}.
        </p>
      ) : (
        funding.deposits.map((d) => <DepositTable key={d.reference} d={d} />)
      )}
      {funding.changes.length > 0 ? <Changes changes={funding.changes} /> : null}
      {funding.held.length > 0 ? (
        <>
          <h2>Held for the lender’s review</h2>
          <OfficeTable id="held" caption="Cases a lender holds back" columns={['Patient', 'Case', 'Lender', 'Amount', 'Since']}>
            {funding.held.map((c) => (
              <tr key={c.applicationId}>
                <th scope="row">
                  <Link to={`/office/applications/${encodeURIComponent(c.applicationId)}`}>{patientName(c)}</Link>
                </th>
                <td>{c.reference}</td>
                <td>{c.lenderName}</td>
                <td>{formatCents(c.grossCents)}</td>
                <td>{c.heldOn ? dateTimeOf(c.heldOn) : ''}</td>
              </tr>
            ))}
          </OfficeTable>
        </>
      ) : null}
    </>
  );
}

function Total({ label, t }: { label: string; t: OfficeFundingTotals }) {
  const deposits = `${t.deposits} deposit${t.deposits === 1 ? '' : 's'}, ${t.cases} case${t.cases === 1 ? '' : 's'}`;
  return (
    <div>
      <dt>{label}</dt>
      <dd>
        {formatCents(t.netCents)} net{' '}
        <span className="muted">
          ({deposits}; {formatCents(t.grossCents)} gross less {formatCents(t.feeCents)} in fees)
        </span>
      </dd>
    </div>
  );
}

function DepositTable({ d }: { d: OfficeDeposit }) {
  const state = d.sent ? `deposited ${dayWords(d.on.slice(0, 10))}` : `expected ${dayWords(d.on.slice(0, 10))}`;
  const caption = `${d.lenderName}, ${state}: deposit ${d.reference}, ${formatCents(d.netCents)}`;
  return (
    <OfficeTable id={`deposit-${d.reference}`} caption={caption} columns={['Patient', 'Case', 'Gross', 'Fee', 'Net']}>
      {d.cases.map((c) => (
        <tr key={c.applicationId}>
          <th scope="row">
            <Link to={`/office/applications/${encodeURIComponent(c.applicationId)}`}>{patientName(c)}</Link>
          </th>
          <td>{c.reference}</td>
          <td>{formatCents(c.grossCents)}</td>
          <td>
            {formatCents(c.feeCents)} <span className="muted">({rateWords(c.feeRateBp)})</span>
          </td>
          <td>{formatCents(c.netCents)}</td>
        </tr>
      ))}
      <tr className="office-total-row">
        <th scope="row">Deposit</th>
        <td>{d.cases.length === 1 ? '1 case' : `${d.cases.length} cases`}</td>
        <td>{formatCents(d.grossCents)}</td>
        <td>{formatCents(d.feeCents)}</td>
        <td>
          <strong>{formatCents(d.netCents)}</strong>
        </td>
      </tr>
    </OfficeTable>
  );
}

function Alerts({ alerts }: { alerts: OfficeFundingAlert[] }) {
  if (alerts.length === 0) return null;
  return (
    <section className="notice notice--warn" aria-labelledby="funding-alerts">
      <h2 id="funding-alerts">To look at</h2>
      <ul>
        {alerts.map((a) => (
          <li key={`${a.kind}-${a.applicationId}`}>
            <Link to={`/office/applications/${encodeURIComponent(a.applicationId)}`}>{patientName(a)}</Link> ({a.reference}, {a.lenderName}):{' '}
            {ALERT_WORDS[a.kind]}, since {dateTimeOf(a.since)}.
          </li>
        ))}
      </ul>
    </section>
  );
}

const CHANGE_WORDS: Record<OfficeFundingChange['kind'], (c: OfficeFundingChange) => string> = {
  voided: (c) => `Canceled before funding: ${formatCents(c.amountCents)} not funded`,
  refunded: (c) =>
    `Refunded ${formatCents(c.amountCents)}: the practice gives back ${formatCents(c.returnedCents)} (${formatCents(c.feeReturnedCents)} of fee returned)`,
  refund_refused: (c) => `Refund of ${formatCents(c.amountCents)} refused by the lender`,
  amount_changed: (c) => `Treatment amount changed to ${formatCents(c.amountCents)} before signing`,
};

function Changes({ changes }: { changes: OfficeFundingChange[] }) {
  return (
    <>
      <h2>Cancellations and refunds</h2>
      <OfficeTable
        id="changes"
        caption="Cases canceled or refunded with their lender"
        columns={['Patient', 'Case', 'Lender', 'What', 'When', 'Lender’s reference']}
      >
        {changes.map((c, i) => (
          <tr key={`${c.applicationId}-${i}`}>
            <th scope="row">
              <Link to={`/office/applications/${encodeURIComponent(c.applicationId)}`}>{patientName(c)}</Link>
            </th>
            <td>{c.reference}</td>
            <td>{c.lenderName}</td>
            <td>{CHANGE_WORDS[c.kind](c)}</td>
            <td>{dateTimeOf(c.on)}</td>
            <td>{c.changeRef}</td>
          </tr>
        ))}
      </OfficeTable>
    </>
  );
}
