import { Link } from 'react-router';
import { formatCents } from '@/lib/money';
import type { OfficeApplication } from './api/applications';
import { canResend, lenderAnswer, messageWords, recordsWords, patientName, planWords, STATUS_WORDS, statusTone, timeOf, untilOf } from './words';
import { moneyWords } from './money';
import { OfficeTable } from './OfficeTable';

/** None is an empty cell: a dash to the eye, a word to a screen reader. */
export function None() {
  return (
    <>
      <span aria-hidden="true">—</span>
      <span className="visually-hidden">None</span>
    </>
  );
}

/** StatusBadge shows a status in words; its colour only repeats them. */
export function StatusBadge({ status }: { status: OfficeApplication['status'] }) {
  return <span className={`office-status office-status--${statusTone(status)}`}>{STATUS_WORDS[status]}</span>;
}

/**
 * DayTable is the day's rows, newest first as the server sends them: an
 * application links to its details; an invitation still waiting can be
 * sent again (to where it went) or canceled. It scrolls sideways on a narrow screen rather than squeeze.
 */
export function DayTable({
  caption,
  rows,
  listSearch,
  onCancel,
  onResend,
  onRetryRecords,
}: {
  caption: string;
  rows: OfficeApplication[];
  /** The list's filters, for the details' way back. */
  listSearch: string;
  onCancel: (row: OfficeApplication) => void;
  onResend: (row: OfficeApplication) => void;
  onRetryRecords: (row: OfficeApplication) => void;
}) {
  return (
    <OfficeTable id="office-table" caption={caption} columns={['Patient', 'Started', 'Status', 'Lenders', 'Approved', 'Plan', { hidden: 'Actions' }]}>
      {rows.map((r) => (
        <Row key={`${r.kind}-${r.id}`} row={r} listSearch={listSearch} onCancel={onCancel} onResend={onResend} onRetryRecords={onRetryRecords} />
      ))}
    </OfficeTable>
  );
}

function Row({
  row: r,
  listSearch,
  onCancel,
  onResend,
  onRetryRecords,
}: {
  row: OfficeApplication;
  listSearch: string;
  onCancel: (row: OfficeApplication) => void;
  onResend: (row: OfficeApplication) => void;
  onRetryRecords: (row: OfficeApplication) => void;
}) {
  const name = patientName(r);
  // The names of the row's link and button say whose row it is; they start with the visible word (label in name).
  return (
    <tr>
      <th scope="row">
        {name || <span className="muted">Name not given</span>}
        {r.reference ? <span className="office-sub">Ref. {r.reference}</span> : null}
      </th>
      <td>{timeOf(r.createdAt)}</td>
      <td>
        <StatusBadge status={r.status} />
        {r.status === 'invited' && r.expiresAt ? <span className="office-sub">Link works until {untilOf(r.expiresAt)}</span> : null}
        {r.messages?.map((m) => (
          <span
            key={`${m.channel}-${m.to}`}
            className={m.state === 'undelivered' || m.state === 'opted_out' ? 'office-sub office-warn' : 'office-sub'}
          >
            {messageWords(m)}
          </span>
        ))}
      </td>
      <td>
        {r.lenders.length ? (
          <ul className="office-lenders">
            {r.lenders.map((l) => (
              <li key={l.providerKey}>
                {l.lenderName}: {lenderAnswer(l)}
              </li>
            ))}
          </ul>
        ) : (
          <None />
        )}
      </td>
      <td>{r.approvedAmountCents ? formatCents(r.approvedAmountCents) : <None />}</td>
      <td>
        {r.plan ? planWords(r.plan) : <None />}
        {r.money ? <span className="office-sub">{moneyWords(r.money)}</span> : null}
        {r.records ? (
          <span className={r.records.state === 'failed' || r.records.state === 'waiting' ? 'office-sub office-warn' : 'office-sub'}>
            {recordsWords(r.records)}
          </span>
        ) : null}
      </td>
      <td>
        {r.kind === 'application' ? (
          <>
            {r.records?.state === 'failed' || r.records?.state === 'waiting' ? (
              <button
                type="button"
                className="btn btn--secondary office-row-action"
                aria-label={name ? `Retry posting ${name}’s case to Open Dental` : 'Retry posting this case to Open Dental'}
                onClick={() => onRetryRecords(r)}
              >
                Retry posting
              </button>
            ) : null}
            <Link
              className="btn btn--secondary office-row-action"
              to={`/office/applications/${encodeURIComponent(r.id)}`}
              state={{ listSearch }}
              aria-label={`Details of ${name ? `${name}’s` : 'this'} application`}
            >
              Details
            </Link>
          </>
        ) : r.status === 'invited' ? (
          <>
            {canResend(r) ? (
              <button
                type="button"
                className="btn btn--secondary office-row-action"
                aria-label={name ? `Send again the invitation for ${name}` : 'Send this invitation again'}
                onClick={() => onResend(r)}
              >
                Send again
              </button>
            ) : null}
            <button
              type="button"
              className="btn btn--secondary office-row-action"
              aria-label={name ? `Cancel the invitation for ${name}` : 'Cancel this invitation'}
              onClick={() => onCancel(r)}
            >
              Cancel
            </button>
          </>
        ) : null}
      </td>
    </tr>
  );
}
