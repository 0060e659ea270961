import { useState, type FormEvent } from 'react';
import { Button } from '@/components/Button';
import { Failure } from '@/components/Failure';
import { TextField } from '@/components/TextField';
import { formatCents, parseDollars } from '@/lib/money';
import { changeAmount, previewAmount, type OfficeAmountPlan, type OfficeAmountResult, type OfficeApplicationDetail } from './api/applications';
import { useChange } from './useChange';

/*
 * A manager changes a case's treatment amount before the patient signs
 * (docs/behaviour.md, "Changing the amount"): the new amount and the
 * reason, then what will happen with each lender, then one confirmation
 * that sends one key however often it is pressed.
 */

/** canChangeAmount: a case nobody signed or completed, still going. */
export const canChangeAmount = (a: OfficeApplicationDetail) => !a.signed && !a.completed && !a.finishedAt;

/** planLines say, lender by lender, what a change of amount does. */
export function planLines(p: OfficeAmountPlan): string[] {
  const out = p.lenders.map((l) => {
    const rest = p.toCents > l.approvedCents ? ` It approved ${formatCents(l.approvedCents)}: the patient would pay the rest up front.` : '';
    return l.accepted
      ? `${l.lenderName} will be asked to let go of the offer the patient accepted; the patient chooses a plan again.${rest}`
      : `${l.lenderName}: the approval stands; the patient chooses a plan for the new amount.${rest}`;
  });
  return out.length ? out : ['No lender has approved the patient yet: the new amount is what they will apply for.'];
}

export function AmountChange({ app, csrf, onChanged }: { app: OfficeApplicationDetail; csrf: string; onChanged: () => void }) {
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ amount?: string; reason?: string }>({});
  const change = () => ({ fromCents: app.purchaseAmountCents, amountCents: parseDollars(amount) ?? 0, reason: reason.trim() });
  const { plan, setPlan, result, failure, busy, review, confirm } = useChange<OfficeAmountPlan, OfficeAmountResult>({
    preview: () => previewAmount(app.id, change(), csrf),
    send: (key) => changeAmount(app.id, change(), csrf, key),
    onDone: onChanged,
    onFieldError: (message) => setErrors({ amount: message }),
  });
  if (!canChangeAmount(app) && !result) return null;

  async function check(ev: FormEvent) {
    ev.preventDefault();
    const e: typeof errors = {};
    if (!(parseDollars(amount) ?? 0)) e.amount = 'Enter the new treatment amount, such as 3800.00.';
    if (reason.trim().length < 3) e.reason = 'Please give the reason, in 3 to 500 characters.';
    setErrors(e);
    if (!e.reason && !e.amount) await review();
  }

  if (result) {
    return (
      <section aria-labelledby="amount-title">
        <h2 id="amount-title">Change the treatment amount</h2>
        <p className={result.status === 'done' ? 'notice' : 'notice notice--warn'} role="status">
          {result.status === 'done'
            ? `Done: the treatment amount is now ${formatCents(result.toCents)}. The patient will be asked to choose a payment plan again.`
            : `The lender refused: ${result.message ?? ''} The amount is still ${formatCents(result.fromCents)}.`}
        </p>
      </section>
    );
  }
  return (
    <section aria-labelledby="amount-title">
      <h2 id="amount-title">Change the treatment amount</h2>
      {plan ? (
        <>
          <p>
            The treatment amount changes from {formatCents(plan.fromCents)} to {formatCents(plan.toCents)}.
          </p>
          <ul className="office-list">
            {planLines(plan).map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          <div className="actions">
            <Button onClick={confirm} disabled={busy}>
              Yes, change it to {formatCents(plan.toCents)}
            </Button>
            <Button variant="secondary" onClick={() => setPlan(null)} disabled={busy}>
              Back
            </Button>
          </div>
        </>
      ) : (
        <form noValidate onSubmit={check}>
          <p className="muted">Before the patient signs, when the treatment plan changed. It is now {formatCents(app.purchaseAmountCents)}.</p>
          <TextField id="amount-new" label="New treatment amount" decimal value={amount} error={errors.amount} onChange={setAmount} />
          <TextField id="amount-reason" label="Reason" hint="Kept in the audit log" value={reason} error={errors.reason} onChange={setReason} />
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
