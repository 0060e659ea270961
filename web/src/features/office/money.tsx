import { useState, type FormEvent } from 'react';
import { Button } from '@/components/Button';
import { Failure } from '@/components/Failure';
import { TextField } from '@/components/TextField';
import { formatCents, parseDollars } from '@/lib/money';
import {
  changeCase,
  previewChange,
  type OfficeApplicationDetail,
  type OfficeCaseChange,
  type OfficeChangePlan,
  type OfficeChangeResult,
  type OfficeMoney,
  type OfficeMoneyEntry,
} from './api/applications';
import { OfficeTable } from './OfficeTable';
import { useChange } from './useChange';
import { dateTimeOf } from './words';

/*
 * What the office sees of a case's money after the patient signs
 * (docs/behaviour.md, "After the signature"): a line on the day's list
 * saying where the money stands, the case's whole money line on its page,
 * and, for a manager, canceling or refunding the case with its lender.
 */

/** rateWords is a fee rate in basis points as a percent: 250 → 2.50%. */
export const rateWords = (bp: number) => `${(bp / 100).toFixed(2)}%`;

const shortDay = new Intl.DateTimeFormat(undefined, { weekday: 'short', month: 'short', day: 'numeric' });
/** dayOf: "Thu, Dec 3". */
export const dayOf = (iso: string) => shortDay.format(new Date(iso));

/** moneyWords says where a completed case's money stands, for its row. */
export function moneyWords(m: OfficeMoney): string {
  const refunded = m.refundedCents ? ` · ${formatCents(m.refundedCents)} refunded` : '';
  switch (m.state) {
    case 'completed':
      return `Waiting for ${m.lenderName} to fund ${formatCents(m.amountCents)}`;
    case 'held':
      return `Held for ${m.lenderName}’s review`;
    case 'funded':
      return `Funded: ${formatCents(m.netCents)} net of ${formatCents(m.feeCents)} fee (${rateWords(m.feeRateBp ?? 0)})${
        m.depositOn ? ` · deposit expected ${dayOf(m.depositOn)}` : ''
      }${refunded}`;
    case 'deposited':
      return `Deposited ${formatCents(m.netCents)}${m.depositRef ? ` · ${m.depositRef}` : ''}${refunded}`;
    case 'voided':
      return `Canceled with ${m.lenderName}: nothing will be paid`;
    case 'refunded':
      return `Refunded in full (${formatCents(m.refundedCents)})`;
  }
}

/** entryWords says what one fact of a money line was. */
export function entryWords(e: OfficeMoneyEntry): string {
  switch (e.kind) {
    case 'approved':
      return `Approved for ${formatCents(e.amountCents)}`;
    case 'signed':
      return `Signed for ${formatCents(e.amountCents)}`;
    case 'completed':
      return `Completed: ${formatCents(e.amountCents)} to be funded`;
    case 'held':
      return 'Held for the lender’s review';
    case 'funded':
      return `Funded ${formatCents(e.amountCents)} gross, ${formatCents(e.feeCents)} fee (${rateWords(e.feeRateBp ?? 0)}), ${formatCents(e.netCents)} net${
        e.depositOn ? `; deposit ${e.depositRef ? `${e.depositRef} ` : ''}expected ${dayOf(e.depositOn)}` : ''
      }`;
    case 'deposited':
      return `Deposited ${formatCents(e.netCents)} in deposit ${e.reference}`;
    case 'voided':
      return 'Canceled with the lender before funding';
    case 'refunded':
      return `Refunded ${formatCents(e.amountCents)}; the practice returns ${formatCents(e.netCents)} (${formatCents(e.feeCents)} of fee given back)`;
    case 'refund_refused':
      return `The lender refused a refund of ${formatCents(e.amountCents)}`;
    case 'amount_changed':
      return `The office changed the treatment amount to ${formatCents(e.amountCents)}; the patient chooses a plan again`;
  }
}

/**
 * MoneyLine is the case's money line on its page, in the order it was
 * learnt. Each fact is dated when it was recorded, not by its `on`: a held
 * fact's `on` is the day the lender expects to fund (flow/money.go), which
 * would read as the day it was held.
 */
export function MoneyLine({ line }: { line: OfficeMoneyEntry[] }) {
  if (line.length === 0) return <p>No money movements yet.</p>;
  return (
    <OfficeTable id="money-line" caption="The case’s money, in the order it happened" columns={['When', 'Lender', 'What', 'Reference']}>
      {line.map((e, i) => (
        <tr key={`${i}-${e.kind}`}>
          <td>
            <time dateTime={e.recordedAt}>{dateTimeOf(e.recordedAt)}</time>
          </td>
          <td>{e.lenderName}</td>
          <td>{entryWords(e)}</td>
          <td>{e.reference}</td>
        </tr>
      ))}
    </OfficeTable>
  );
}

/** changeKind is the change a case's money allows now, or null: a void before funding, a refund after while something is left. */
export function changeKind(m: OfficeMoney | undefined): OfficeCaseChange['kind'] | null {
  if (!m) return null;
  if (m.state === 'completed' || m.state === 'held') return 'void';
  if ((m.state === 'funded' || m.state === 'deposited') && (m.refundedCents ?? 0) < m.amountCents) return 'refund';
  return null;
}

const RESULT_WORDS: Record<OfficeChangeResult['status'], string> = {
  done: 'Done.',
  too_late: 'Too late to cancel: the lender has already funded this case. Refund it instead.',
  refused: 'The lender refused.',
};

/**
 * ChangeCase lets a manager cancel a case with its lender before it funds,
 * or refund it after: the amount and the reason, then what the lender will
 * be asked, then one confirmation. The confirmation sends one key however
 * often it is pressed, so the lender makes the change once.
 */
export function ChangeCase({ app, csrf, onChanged }: { app: OfficeApplicationDetail; csrf: string; onChanged: () => void }) {
  const kind = changeKind(app.money);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ amount?: string; reason?: string }>({});
  const change = (): OfficeCaseChange => {
    const cents = kind === 'refund' && amount.trim() ? (parseDollars(amount) ?? 0) : 0;
    return { kind: kind ?? 'refund', reason: reason.trim(), ...(cents ? { amountCents: cents } : {}) };
  };
  const { plan, setPlan, result, setResult, failure, busy, review, confirm } = useChange<OfficeChangePlan, OfficeChangeResult>({
    preview: () => previewChange(app.id, change(), csrf),
    send: (key) => changeCase(app.id, change(), csrf, key),
    onDone: onChanged,
    onFieldError: (message) => setErrors({ amount: message }),
  });
  if (!kind && !result) return null;

  async function check(ev: FormEvent) {
    ev.preventDefault();
    const e: typeof errors = {};
    if (reason.trim().length < 3) e.reason = 'Please give the reason, in 3 to 500 characters.';
    if (kind === 'refund' && amount.trim() && !(parseDollars(amount) ?? 0))
      e.amount = 'Enter an amount such as 250.00, or leave it empty to refund all that is left.';
    setErrors(e);
    if (!e.reason && !e.amount) await review();
  }

  if (result) {
    return (
      <section aria-labelledby="change-title">
        <h2 id="change-title">{result.kind === 'void' ? 'Cancel with the lender' : 'Refund'}</h2>
        <p className={result.status === 'done' ? 'notice' : 'notice notice--warn'} role="status">
          {RESULT_WORDS[result.status]} {result.message ?? ''} {result.reference ? `The lender’s reference: ${result.reference}.` : ''}
        </p>
        {kind ? (
          <div className="actions">
            <Button
              variant="secondary"
              onClick={() => {
                setResult(null);
                setAmount('');
                setReason('');
              }}
            >
              {kind === 'void' ? 'Cancel with the lender' : 'Make another refund'}
            </Button>
          </div>
        ) : null}
      </section>
    );
  }
  const title = kind === 'void' ? 'Cancel with the lender' : 'Refund';
  return (
    <section aria-labelledby="change-title">
      <h2 id="change-title">{title}</h2>
      {plan ? (
        <>
          <p>
            {plan.kind === 'void'
              ? `${plan.lenderName} will be asked to cancel this case: ${formatCents(plan.amountCents)} will not be funded.`
              : `${plan.lenderName} will be asked to refund ${formatCents(plan.amountCents)} of the ${formatCents(plan.financedCents)} financed` +
                `${plan.refundedCents ? ` (${formatCents(plan.refundedCents)} refunded before)` : ''}; ${formatCents(plan.leftCents)} will be left.`}
          </p>
          <div className="actions">
            <Button onClick={confirm} disabled={busy}>
              {plan.kind === 'void' ? 'Yes, cancel it with the lender' : `Yes, refund ${formatCents(plan.amountCents)}`}
            </Button>
            <Button variant="secondary" onClick={() => setPlan(null)} disabled={busy}>
              Back
            </Button>
          </div>
        </>
      ) : (
        <form noValidate onSubmit={check}>
          {kind === 'refund' ? (
            <TextField
              id="change-amount"
              label="Amount to refund"
              hint="Leave empty to refund all that is left"
              decimal
              value={amount}
              error={errors.amount}
              onChange={setAmount}
            />
          ) : null}
          <TextField id="change-reason" label="Reason" hint="Kept in the audit log" value={reason} error={errors.reason} onChange={setReason} />
          <div className="actions">
            <Button type="submit" variant="secondary" disabled={busy}>
              Review
            </Button>
          </div>
        </form>
      )}
      <Failure message={failure} />
    </section>
  );
}
