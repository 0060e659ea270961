import * as RadioGroup from '@radix-ui/react-radio-group';
import { useEffect, useMemo, useState } from 'react';
import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { LenderLogo } from '@/components/LenderLogo';
import { Skeleton } from '@/components/Skeleton';
import { useFlowNavigate } from '@/flow/navigation';
import { withProgress } from '@/flow/progress';
import { isHandled } from '@/lib/api/client';
import type { PaymentPlan } from '@/lib/api/types';
import { isPositive } from '@/lib/decision';
import { clampEstimate, formatCents, planAmountCents } from '@/lib/money';
import { providerRoute } from '@/lib/paths';
import { nameOf, providerName, useFlow, type FlowState } from '@/stores/flow';
import { fetchPlans, selectPlan } from './api/plans';
import { offerProgress } from './messages';
import { offerExpiry } from './offerExpiry';
import { DownPaymentTable } from './DownPaymentTable';
import { PlanCard } from './PlanCard';
import { isEligible, suggestedPlan } from './plans';

interface Offer {
  providerKey: string;
  approvedAmountCents: number;
  expiresAt?: string;
  code: string;
}

const WORD: Record<string, string> = { approved: 'approved', preapproved: 'pre-approved', prequalified: 'prequalified' };

function offersOf(s: FlowState): Offer[] {
  return Object.entries(s.responses)
    .map(([k, r]): Offer | null => {
      const d = r.apply ?? r.preAuth;
      if (!d || !isPositive(d.responseCode)) return null;
      return { providerKey: k, approvedAmountCents: d.approvedAmountCents ?? 0, expiresAt: d.expiresAt, code: d.responseCode };
    })
    .filter((o): o is Offer => o !== null);
}

const STEP_DOLLARS = 500;

/** PaymentPlansPage: each lender's offer, the estimator, and the plan option cards (docs/behaviour.md, "Plans and offers"). */
export function PaymentPlansPage() {
  const navigate = useFlowNavigate();
  const s = useFlow();
  const offers = useMemo(() => offersOf(s), [s]);
  const primary = offers.find((o) => o.providerKey === s.providerKey) ?? offers[0];
  const cfg = primary ? s.providers[primary.providerKey] : undefined;
  const maxCents = primary?.approvedAmountCents ?? 0;
  const minCents = cfg?.minPaymentCalculatorCents ?? 0;
  const defaultCents = planAmountCents(maxCents, s.purchaseAmountCents);
  const plansAmount = primary ? s.responses[primary.providerKey]?.paymentPlansAmountCents : undefined;
  const [amountText, setAmountText] = useState(String(Math.round((plansAmount ?? defaultCents) / 100)));
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  const [choice, setChoice] = useState<string>('');
  const [choiceError, setChoiceError] = useState(false);

  const allPlans: PaymentPlan[] = offers.flatMap((o) => s.responses[o.providerKey]?.paymentPlans ?? []);
  const amountCents = plansAmount ?? defaultCents;

  // Plans not fetched yet (or fetching failed on pre-authorisation): fetch them now.
  useEffect(() => {
    if (!primary || s.responses[primary.providerKey]?.paymentPlans) return;
    setLoading(true);
    fetchPlans(primary.providerKey, defaultCents, { handled: false })
      .catch(() => setFailed(true))
      .finally(() => setLoading(false));
  }, [primary, defaultCents, s.responses]);

  const recalc = async (dollars: number) => {
    if (!primary) return;
    const clamped = clampEstimate(dollars, Math.ceil(minCents / 100), Math.floor(maxCents / 100));
    setAmountText(String(clamped));
    setLoading(true);
    setFailed(false);
    try {
      await withProgress(offerProgress.plans(providerName(primary.providerKey)), () =>
        fetchPlans(primary.providerKey, clamped * 100, { handled: false }),
      );
      setChoice('');
    } catch {
      setFailed(true);
    } finally {
      setLoading(false);
    }
  };

  const eligible = allPlans.filter((p) => isEligible(p, amountCents, maxCents));
  const others = allPlans.filter((p) => !isEligible(p, amountCents, maxCents));
  const suggested = suggestedPlan(eligible);
  const downPaymentCents = Math.max(0, ...allPlans.map((p) => p.downPaymentCents));
  const selected = allPlans.find((p) => `${p.providerKey}|${p.providerPlanCode}` === choice);

  const proceed = async () => {
    if (!selected) {
      setChoiceError(true);
      document.getElementById('plans-error')?.focus();
      return;
    }
    try {
      await selectPlan(selected);
      navigate(providerRoute(selected.providerKey, 'paymentPlanReview'));
    } catch (e) {
      if (!isHandled(e)) navigate('/error');
    }
  };

  if (!primary) {
    return (
      <div className="card">
        <Page title="Payment options">
          <p>We don’t have an offer to show. Please ask the office for help.</p>
        </Page>
      </div>
    );
  }

  return (
    <>
      <Page title="Choose your payment plan" />
      <section aria-label="Your offers">
        {offers.map((o) => (
          <div key={o.providerKey} className="card offer-head">
            <LenderLogo providerKey={o.providerKey} />
            <div style={{ flex: 1, minWidth: 220 }}>
              <p style={{ margin: 0 }}>
                Congratulations! {nameOf(s.providers, o.providerKey)} {WORD[o.code] ?? 'approved'} you for up to
              </p>
              <p className="offer-head__amount" style={{ margin: 0 }}>
                {formatCents(o.approvedAmountCents)}
              </p>
              <p className="muted" style={{ margin: 0 }}>
                {offerExpiry(
                  o.expiresAt ?? s.responses[o.providerKey]?.paymentPlans?.[0]?.expireDateTime,
                  new Date(),
                  s.providers[o.providerKey]?.preauthExpireDays ?? 30,
                )}
              </p>
            </div>
          </div>
        ))}
      </section>

      <section className="card" aria-labelledby="estimator-title">
        <h2 id="estimator-title">Amount to finance</h2>
        <p className="muted">
          {s.purchaseAmountCents ? `Your treatment costs ${formatCents(s.purchaseAmountCents)}. ` : ''}You can finance up to {formatCents(maxCents)}.
        </p>
        <form
          className="estimator"
          onSubmit={(e) => {
            e.preventDefault();
            void recalc(Number(amountText.replace(/\D/g, '')));
          }}
        >
          {!cfg?.paymentCalculatorButtonsHidden ? (
            <Button
              variant="secondary"
              className="estimator__step"
              aria-label="Lower the amount by $500"
              onClick={() => void recalc(Number(amountText) - STEP_DOLLARS)}
              disabled={loading || Number(amountText) * 100 <= minCents}
            >
              −
            </Button>
          ) : null}
          <div className="field" style={{ margin: 0 }}>
            <label htmlFor="estimate">Amount in dollars</label>
            <div className="prefix-wrap">
              <span aria-hidden="true">$</span>
              <input
                id="estimate"
                className="input"
                inputMode="numeric"
                autoComplete="off"
                value={amountText}
                onChange={(e) => setAmountText(e.target.value.replace(/\D/g, ''))}
                onKeyDown={(e) => {
                  if (e.key === '-' || e.key === '.') e.preventDefault();
                }}
              />
            </div>
          </div>
          {!cfg?.paymentCalculatorButtonsHidden ? (
            <Button
              variant="secondary"
              className="estimator__step"
              aria-label="Raise the amount by $500"
              onClick={() => void recalc(Number(amountText) + STEP_DOLLARS)}
              disabled={loading || Number(amountText) * 100 >= maxCents}
            >
              +
            </Button>
          ) : null}
          <Button type="submit" variant="secondary" className="estimator__update" disabled={loading}>
            Update plans
          </Button>
        </form>
      </section>

      {downPaymentCents > 0 ? (
        <section className="card" aria-labelledby="down-payment-title">
          <h2 id="down-payment-title">Your down payment</h2>
          <p className="muted">A down payment is paid today and comes off what you finance.</p>
          <DownPaymentTable
            treatmentCents={s.purchaseAmountCents || amountCents}
            insuranceCents={s.insuranceBenefitsCents}
            downPaymentCents={downPaymentCents}
          />
        </section>
      ) : null}

      <section aria-labelledby="plans-title">
        <h2 id="plans-title">Payment plans for {formatCents(amountCents)}</h2>
        {choiceError ? (
          <p id="plans-error" className="error-text" tabIndex={-1} role="alert">
            Please choose a payment plan
          </p>
        ) : null}
        {loading && !allPlans.length ? (
          <div role="status" aria-live="polite">
            <span className="visually-hidden">Loading payment plans…</span>
            <Skeleton height={120} count={3} />
          </div>
        ) : failed && !allPlans.length ? (
          <div className="notice notice--warn">
            <p style={{ margin: 0 }}>We couldn’t get the payment plans just now. Please try “Update plans” again, or ask the office.</p>
          </div>
        ) : !allPlans.length ? (
          <div className="notice">
            <p style={{ margin: 0 }}>We could not find any plans that match your search criteria</p>
          </div>
        ) : (
          <RadioGroup.Root
            className="plans"
            value={choice}
            onValueChange={(v) => {
              setChoice(v);
              setChoiceError(false);
            }}
            aria-labelledby="plans-title"
            aria-describedby={choiceError ? 'plans-error' : undefined}
          >
            {eligible.map((p) => (
              <PlanCard key={`${p.providerKey}|${p.providerPlanCode}`} plan={p} financedAmountCents={amountCents} suggested={p === suggested} />
            ))}
            {others.length ? (
              <p className="muted" style={{ marginTop: 8 }}>
                Below are other options. Please note these do not match your active search criteria
              </p>
            ) : null}
            {others.map((p) => (
              <PlanCard key={`${p.providerKey}|${p.providerPlanCode}`} plan={p} financedAmountCents={amountCents} fullyCovered={false} />
            ))}
          </RadioGroup.Root>
        )}
      </section>

      <div className="card" aria-live="polite">
        {selected ? (
          <p style={{ margin: 0 }} className="lead">
            {selected.downPaymentCents > 0 ? (
              <>
                Due today: <strong>{formatCents(selected.downPaymentCents)}</strong>, then{' '}
              </>
            ) : null}
            Your monthly payment: <strong>{formatCents(selected.monthlyAmountCents)}</strong> for {selected.durationMonths} months
          </p>
        ) : (
          <p style={{ margin: 0 }} className="muted">
            Choose a plan to see your monthly payment.
          </p>
        )}
        <div className="actions">
          <Button onClick={proceed} disabled={loading}>
            Continue
          </Button>
        </div>
      </div>
    </>
  );
}
