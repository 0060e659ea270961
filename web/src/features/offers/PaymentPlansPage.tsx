import { useEffect, useMemo, useRef, useState } from 'react';
import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { Skeleton } from '@/components/Skeleton';
import { FlowNotice } from '@/components/FlowNotice';
import { useFlowNavigate } from '@/flow/navigation';
import { isHandled } from '@/lib/api/client';
import type { PaymentPlan } from '@/lib/api/types';
import { joinNames } from '@/lib/consent/chain';
import { isPositive } from '@/lib/decision';
import { Trans, useT } from '@/lib/i18n';
import { clampEstimate, formatCents, paymentsLine, planAmountCents } from '@/lib/money';
import { lenderRoute } from '@/lib/paths';
import { flow, lenderName, shortNameOf, useFlow, type FlowState } from '@/stores/flow';
import { ui } from '@/stores/ui';
import { choosePlan, fetchPlans, selectPlan } from './api/plans';
import { offerProgress } from './messages';
import { DownPaymentTable } from './DownPaymentTable';
import { Estimator } from './Estimator';
import { OfferHeads, type Offer } from './OfferHeads';
import { PlanList, planValue } from './PlanList';
import { useRecalculating } from './RecalculatingDialog';
import { useSameAsCashNotice } from './SameAsCashNotice';
import { estimateFloorCents, isEligible, isLease, suggestedPlan } from './plans';
import { useWording } from '@/lib/wording';

/** offersOf: every lender of the session with a positive answer, in the order they answered. */
function offersOf(s: FlowState): Offer[] {
  return Object.entries(s.responses)
    .map(([k, r]): Offer | null => {
      const d = r.apply ?? r.preAuth;
      if (!d || !isPositive(d.responseCode)) return null;
      return {
        providerKey: k,
        approvedAmountCents: d.approvedAmountCents ?? 0,
        expiresAt: d.expiresAt,
        code: d.responseCode,
        offeredProviderId: d.offeredProviderId,
      };
    })
    .filter((o): o is Offer => o !== null);
}

/** PaymentPlansPage: each lender's offer, the estimator, and the plan option cards (docs/behaviour.md, "Plans and offers"). */
export function PaymentPlansPage() {
  const t = useT();
  const navigate = useFlowNavigate();
  const s = useFlow();
  const words = useWording();
  const offers = useMemo(() => offersOf(s), [s]);
  const primary = offers.find((o) => o.providerKey === s.providerKey) ?? offers[0];
  const cfg = primary ? s.lenders[primary.providerKey] : undefined;
  const maxCents = primary?.approvedAmountCents ?? 0;
  const minCents = cfg?.minPaymentCalculatorCents ?? 0;
  const defaultCents = planAmountCents(maxCents, s.purchaseAmountCents, s.insuranceBenefitsCents);
  const plansAmount = primary ? s.responses[primary.providerKey]?.paymentPlansAmountCents : undefined;
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  const [choice, setChoice] = useState<string>('');
  const [choiceError, setChoiceError] = useState(false);
  // The recalculate dialog, for a lender whose catalogue entry asks for it (RecalculatingDialog.tsx).
  const recalc = useRecalculating(offers.some((o) => s.lenders[o.providerKey]?.paymentCalculatorRecalculatingModal));

  const allPlans: PaymentPlan[] = offers.flatMap((o) => s.responses[o.providerKey]?.paymentPlans ?? []);
  const sameAsCash = useSameAsCashNotice(allPlans);
  const amountCents = plansAmount ?? defaultCents;
  // The estimator never goes below the lowest amount a plan offered is for (nor above the approval).
  const floorCents = Math.min(estimateFloorCents(allPlans, minCents), maxCents || Infinity);
  const offered = Object.fromEntries(offers.map((o) => [o.providerKey, o.offeredProviderId]));
  const approved = Object.fromEntries(offers.map((o) => [o.providerKey, o.approvedAmountCents]));
  const missing = offers.filter((o) => !s.responses[o.providerKey]?.paymentPlans).map((o) => o.providerKey);

  // Plans not fetched yet (a lender that does not send plans with its
  // pre-authorisation, or a fetch that failed then): fetch them now, for
  // each offer, priced for the smaller of its approval and the purchase.
  const missingKey = missing.join(',');
  useEffect(() => {
    if (!missingKey) return;
    setLoading(true);
    Promise.all(
      missingKey.split(',').map((k) =>
        fetchPlans(
          k,
          planAmountCents(offers.find((o) => o.providerKey === k)?.approvedAmountCents ?? 0, s.purchaseAmountCents, s.insuranceBenefitsCents),
          {
            handled: false,
          },
        ),
      ),
    )
      .catch(() => setFailed(true))
      .finally(() => setLoading(false));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- refetch only when the set of offers without plans changes
  }, [missingKey]);

  // A lender that explains its plans unasked (autoShowLearnHowDrawer) opens
  // the explanation of the suggested plan once, when its plans first show.
  const autoShown = useRef(false);
  useEffect(() => {
    if (autoShown.current || !cfg?.autoShowLearnHowDrawer || !allPlans.length) return;
    autoShown.current = true;
    const first = suggestedPlan(allPlans.filter((p) => p.providerKey === primary?.providerKey && isEligible(p, maxCents)));
    if (first) ui.set({ learnHow: first });
  }, [cfg, allPlans, primary, maxCents]);

  /**
   * estimate prices every offer's plans for an amount, each kept within its
   * own bounds; it answers the dollars the primary's plans are now priced
   * for (those of the plans still shown, when asking failed).
   */
  const estimate = async (dollars: number): Promise<number> => {
    if (!primary) return dollars;
    const clamped = clampEstimate(dollars, Math.ceil(floorCents / 100), Math.floor(maxCents / 100));
    setLoading(true);
    setFailed(false);
    try {
      // One lender by its name; several, in one line, by their short names.
      const who = offers.length > 1 ? joinNames(offers.map((o) => shortNameOf(s.lenders, o.providerKey))) : lenderName(primary.providerKey);
      await recalc.run(offerProgress.plans(who), () =>
        Promise.all(
          offers.map((o) => {
            const c = s.lenders[o.providerKey];
            const own = clampEstimate(clamped, Math.ceil((c?.minPaymentCalculatorCents ?? 0) / 100), Math.floor(o.approvedAmountCents / 100));
            return fetchPlans(o.providerKey, own * 100, { handled: false });
          }),
        ),
      );
      setChoice('');
    } catch {
      setFailed(true);
    } finally {
      setLoading(false);
    }
    return Math.round((flow.get().responses[primary.providerKey]?.paymentPlansAmountCents ?? amountCents) / 100);
  };

  // A credit plan's down payment (a lease's initial payment is on its card, and a lease finances nothing).
  const credit = allPlans.filter((p) => !isLease(p));
  const downPaymentCents = Math.max(0, ...credit.map((p) => p.downPaymentCents));
  const selected = allPlans.find((p) => planValue(p) === choice);
  // The down-payment table follows the chosen plan when it has one, else the plan with the largest down payment.
  const downPlan = selected?.downPaymentCents && !isLease(selected) ? selected : credit.find((p) => p.downPaymentCents === downPaymentCents);

  const proceed = async () => {
    if (!selected) {
      setChoiceError(true);
      document.getElementById('plans-error')?.focus();
      return;
    }
    // A same-as-cash plan goes on only once its notice is acknowledged (SameAsCashNotice.tsx).
    if (!(await sameAsCash.confirm(selected))) return;
    try {
      // A lender that takes the choice on the review screen
      // (selectPaymentPlanOnReviewScreen) is told there, once the patient
      // has seen the plan in full; the others are told now.
      if (s.lenders[selected.providerKey]?.selectPaymentPlanOnReviewScreen) choosePlan(selected);
      else await selectPlan(selected);
      flow.set({ notice: null });
      navigate(lenderRoute(selected.providerKey, 'paymentPlanReview'));
    } catch (e) {
      if (!isHandled(e)) navigate('/error');
    }
  };

  if (!primary) {
    return (
      <div className="card">
        <Page title={t('offers.plans.noOfferTitle')}>
          <p>{t('offers.plans.noOffer', { staff: words.staff })}</p>
        </Page>
      </div>
    );
  }

  return (
    <>
      <Page title={t('offers.plans.title')} />
      <FlowNotice />
      <OfferHeads offers={offers} />
      <Estimator
        amountCents={amountCents}
        minCents={floorCents}
        maxCents={maxCents}
        purchaseCents={s.purchaseAmountCents}
        buttonsHidden={cfg?.paymentCalculatorButtonsHidden}
        busy={loading}
        onEstimate={estimate}
      />
      {recalc.dialog}
      {sameAsCash.notice}

      {downPaymentCents > 0 && downPlan ? (
        <section className="card" aria-labelledby="down-payment-title">
          <h2 id="down-payment-title">{t('offers.plans.downPaymentTitle')}</h2>
          <p className="muted">{t('offers.plans.downPaymentIntro')}</p>
          {offers.map((o) => {
            const cap = s.lenders[o.providerKey]?.maxDownPaymentCents;
            return cap ? (
              <p key={o.providerKey} className="muted">
                {t('offers.plans.downPaymentCap', { lender: lenderName(o.providerKey), amount: formatCents(cap) })}
              </p>
            ) : null;
          })}
          <DownPaymentTable
            plan={downPlan}
            treatmentCents={s.purchaseAmountCents}
            insuranceCents={s.insuranceBenefitsCents}
            schedule={downPlan === selected}
          />
        </section>
      ) : null}

      <section aria-labelledby="plans-title">
        <h2 id="plans-title">{t('offers.plans.plansFor', { amount: formatCents(amountCents) })}</h2>
        {choiceError ? (
          <p id="plans-error" className="error-text" tabIndex={-1} role="alert">
            {t('offers.plans.chooseError')}
          </p>
        ) : null}
        {failed && allPlans.length ? (
          <p className="notice notice--warn" role="alert">
            {t('offers.plans.loadFailed', { staff: words.staff })}
          </p>
        ) : null}
        {loading && !allPlans.length ? (
          <div role="status" aria-live="polite">
            <span className="visually-hidden">{t('offers.plans.loading')}</span>
            <Skeleton height={120} count={3} />
          </div>
        ) : failed && !allPlans.length ? (
          <div className="notice notice--warn">
            <p style={{ margin: 0 }}>{t('offers.plans.loadFailed', { staff: words.staff })}</p>
          </div>
        ) : (
          <PlanList
            plans={allPlans}
            approvedCents={approved}
            offered={offered}
            value={choice}
            onChange={(v) => {
              setChoice(v);
              setChoiceError(false);
            }}
            labelledBy="plans-title"
            describedBy={choiceError ? 'plans-error' : undefined}
          />
        )}
      </section>

      <div className="card" aria-live="polite">
        {selected ? (
          <p style={{ margin: 0 }} className="lead">
            <Trans
              i18nKey={selected.downPaymentCents > 0 ? 'offers.plans.dueThenPayments' : 'offers.plans.payments'}
              values={{ down: formatCents(selected.downPaymentCents), payments: paymentsLine(selected) }}
              components={{ strong: <strong /> }}
            />
          </p>
        ) : (
          <p style={{ margin: 0 }} className="muted">
            {t('offers.plans.choosePrompt')}
          </p>
        )}
        <div className="actions">
          <Button onClick={proceed} disabled={loading}>
            {t('offers.continue')}
          </Button>
        </div>
      </div>
    </>
  );
}
