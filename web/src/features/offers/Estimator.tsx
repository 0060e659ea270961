import { useState } from 'react';
import { Button } from '@/components/Button';
import { formatCents } from '@/lib/money';

const STEP_DOLLARS = 500;

export interface EstimatorProps {
  /** The amount the plans are priced for, in cents. */
  amountCents: number;
  minCents: number;
  maxCents: number;
  purchaseCents?: number;
  buttonsHidden?: boolean;
  busy: boolean;
  /** onEstimate asks for plans for a whole-dollar amount (not yet clamped). */
  onEstimate: (dollars: number) => Promise<number>;
}

/**
 * Estimator is the amount to finance (docs/behaviour.md, "Plans and
 * offers"): whole dollars, in steps of $500 with the buttons, kept between
 * the lender's calculator minimum and the approved amount. A lender with a
 * minimum says so, so that a patient asking for less knows why the amount
 * came back higher.
 */
export function Estimator({ amountCents, minCents, maxCents, purchaseCents, buttonsHidden, busy, onEstimate }: EstimatorProps) {
  const [text, setText] = useState(String(Math.round(amountCents / 100)));
  const run = async (dollars: number) => setText(String(await onEstimate(dollars)));
  const step = (sign: number) => (
    <Button
      variant="secondary"
      className="estimator__step"
      aria-label={`${sign < 0 ? 'Lower' : 'Raise'} the amount by $${STEP_DOLLARS}`}
      onClick={() => void run(Number(text) + sign * STEP_DOLLARS)}
      disabled={busy || (sign < 0 ? Number(text) * 100 <= minCents : Number(text) * 100 >= maxCents)}
    >
      {sign < 0 ? '−' : '+'}
    </Button>
  );
  return (
    <section className="card" aria-labelledby="estimator-title">
      <h2 id="estimator-title">Amount to finance</h2>
      <p className="muted" id="estimator-hint">
        {purchaseCents ? `Your treatment costs ${formatCents(purchaseCents)}. ` : ''}You can finance up to {formatCents(maxCents)}
        {minCents > 0 ? `; plans start at ${formatCents(minCents, { whole: true })}` : ''}.
      </p>
      <form
        className="estimator"
        onSubmit={(e) => {
          e.preventDefault();
          void run(Number(text.replace(/\D/g, '')));
        }}
      >
        {buttonsHidden ? null : step(-1)}
        <div className="field" style={{ margin: 0 }}>
          <label htmlFor="estimate">Amount in dollars</label>
          <div className="prefix-wrap">
            <span aria-hidden="true">$</span>
            <input
              id="estimate"
              className="input"
              inputMode="numeric"
              autoComplete="off"
              aria-describedby="estimator-hint"
              value={text}
              onChange={(e) => setText(e.target.value.replace(/\D/g, ''))}
              onKeyDown={(e) => {
                if (e.key === '-' || e.key === '.') e.preventDefault();
              }}
            />
          </div>
        </div>
        {buttonsHidden ? null : step(1)}
        <Button type="submit" variant="secondary" className="estimator__update" disabled={busy}>
          Update plans
        </Button>
      </form>
    </section>
  );
}
