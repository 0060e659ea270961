import { useState } from 'react';
import { Button } from '@/components/Button';
import { MaskedInput } from '@/components/MaskedInput';
import { useT } from '@/lib/i18n';
import { maskMoney } from '@/lib/masks';
import { formatCents } from '@/lib/money';

const STEP_DOLLARS = 500;
/** The lower button's sign: a true minus, as wide as the plus (a symbol, not a word; the button's label says it). */
const MINUS = '\u2212';

/** shapeDollars shows whole dollars as the application form's amount box does: 3200 → 3,200 (lib/masks.ts); pasted cents are dropped, $3,200.00 → 3,200. */
const shapeDollars = (typed: string) => maskMoney(typed.split('.')[0]!.replace(/\D/g, ''));
/** dollarsOf reads the whole dollars the box shows. */
const dollarsOf = (shaped: string) => Number(shaped.replace(/\D/g, '') || '0');

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
  const t = useT();
  const [text, setText] = useState(shapeDollars(String(Math.round(amountCents / 100))));
  // The refusal is said at render, so it follows the language and the amount on screen.
  const [error, setError] = useState(false);
  const floorDollars = Math.max(1, Math.ceil(minCents / 100));
  const run = async (dollars: number) => {
    setError(false);
    setText(shapeDollars(String(await onEstimate(dollars))));
  };
  /**
   * submit refuses an empty or $0 amount out loud: there is nothing to
   * price, and the plans on screen stay those of the last amount, which
   * the message says.
   */
  const submit = () => {
    const dollars = dollarsOf(text);
    if (dollars <= 0) {
      setError(true);
      document.getElementById('estimate')?.focus();
      return;
    }
    void run(dollars);
  };
  const step = (sign: number) => (
    <Button
      variant="secondary"
      className="estimator__step"
      aria-label={t(sign < 0 ? 'offers.estimator.lower' : 'offers.estimator.raise', { step: formatCents(STEP_DOLLARS * 100, { whole: true }) })}
      onClick={() => void run(dollarsOf(text) + sign * STEP_DOLLARS)}
      disabled={busy || (sign < 0 ? dollarsOf(text) * 100 <= minCents : dollarsOf(text) * 100 >= maxCents)}
    >
      {sign < 0 ? MINUS : '+'}
    </Button>
  );
  return (
    <section className="card" aria-labelledby="estimator-title">
      <h2 id="estimator-title">{t('offers.estimator.title')}</h2>
      <p className="muted" id="estimator-hint">
        {purchaseCents ? `${t('offers.estimator.costs', { amount: formatCents(purchaseCents) })} ` : null}
        {minCents > 0
          ? t('offers.estimator.upToFrom', { max: formatCents(maxCents), min: formatCents(minCents, { whole: true }) })
          : t('offers.estimator.upTo', { max: formatCents(maxCents) })}
      </p>
      <form
        className="estimator"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        {buttonsHidden ? null : step(-1)}
        <div className="field" style={{ margin: 0 }}>
          <label htmlFor="estimate">{t('offers.estimator.amountLabel')}</label>
          <div className="prefix-wrap">
            <span aria-hidden="true">$</span>
            <MaskedInput
              id="estimate"
              className="input"
              inputMode="numeric"
              autoComplete="off"
              aria-describedby={error ? 'estimator-hint estimate-error' : 'estimator-hint'}
              aria-invalid={error ? true : undefined}
              value={text}
              shape={shapeDollars}
              onValueChange={(shaped) => {
                setText(shaped);
                setError(false);
              }}
              onKeyDown={(e) => {
                if (e.key === '-' || e.key === '.') e.preventDefault();
              }}
            />
          </div>
        </div>
        {buttonsHidden ? null : step(1)}
        {error ? (
          <p id="estimate-error" className="error-text estimator__error" role="alert">
            {t('offers.estimator.tooLow', { min: formatCents(floorDollars * 100, { whole: true }), amount: formatCents(amountCents) })}
          </p>
        ) : null}
        <Button type="submit" variant="secondary" className="estimator__update" disabled={busy}>
          {t('offers.estimator.update')}
        </Button>
      </form>
    </section>
  );
}
