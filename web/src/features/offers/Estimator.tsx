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
  /** The least the plans can be priced for (plans.ts estimateFloorCents): the lowest amount a plan offered is for, at least $1. */
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
 * the lowest amount a plan offered is for and the approved amount. The box
 * shows the amount the plans below are priced for whenever that changes; a
 * floor above a dollar is said in the hint.
 */
export function Estimator({ amountCents, minCents, maxCents, purchaseCents, buttonsHidden, busy, onEstimate }: EstimatorProps) {
  const t = useT();
  const dollarsText = (cents: number) => shapeDollars(String(Math.round(cents / 100)));
  const [text, setText] = useState(dollarsText(amountCents));
  // The plans were priced for another amount (another screen's estimate, a refused one): the box follows them.
  const [priced, setPriced] = useState(amountCents);
  if (priced !== amountCents) {
    setPriced(amountCents);
    setText(dollarsText(amountCents));
  }
  // The refusal is said at render, so it follows the language and the amount on screen.
  const [error, setError] = useState(false);
  const floorDollars = Math.max(1, Math.ceil(minCents / 100));
  const run = async (dollars: number) => {
    setError(false);
    setText(shapeDollars(String(await onEstimate(dollars))));
  };
  /**
   * submit refuses an amount below the floor out loud (nothing, $0, or less
   * than any plan offered is for): no plan to price, and the plans on screen
   * stay those of the last amount, which the message says.
   */
  const submit = () => {
    const dollars = dollarsOf(text);
    if (dollars < floorDollars) {
      setError(true);
      document.getElementById('estimate')?.focus();
      return;
    }
    void run(dollars);
  };
  // A step stops at the floor and at the approval, never past them.
  const stepTo = (sign: number) =>
    Math.min(Math.max(dollarsOf(text) + sign * STEP_DOLLARS, floorDollars), maxCents > 0 ? Math.floor(maxCents / 100) : Infinity);
  const step = (sign: number) => (
    <Button
      variant="secondary"
      className="estimator__step"
      aria-label={t(sign < 0 ? 'offers.estimator.lower' : 'offers.estimator.raise', { step: formatCents(STEP_DOLLARS * 100, { whole: true }) })}
      onClick={() => void run(stepTo(sign))}
      disabled={busy || (sign < 0 ? dollarsOf(text) <= floorDollars : dollarsOf(text) * 100 >= maxCents)}
    >
      {sign < 0 ? MINUS : '+'}
    </Button>
  );
  return (
    <section className="card" aria-labelledby="estimator-title">
      <h2 id="estimator-title">{t('offers.estimator.title')}</h2>
      <p className="muted" id="estimator-hint">
        {purchaseCents ? `${t('offers.estimator.costs', { amount: formatCents(purchaseCents) })} ` : null}
        {floorDollars > 1
          ? t('offers.estimator.upToFrom', { max: formatCents(maxCents), min: formatCents(floorDollars * 100, { whole: true }) })
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
