import { Fragment } from 'react';
import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { LenderLogo } from '@/components/LenderLogo';
import { useFlowNavigate } from '@/flow/navigation';
import type { PaymentPlan } from '@/lib/api/types';
import { t as translate, useT } from '@/lib/i18n';
import { formatApr, formatCents, paymentsLine } from '@/lib/money';
import { providerRoute } from '@/lib/paths';
import { isHandled } from '@/lib/api/client';
import { useFlow, useProviderName } from '@/stores/flow';
import { choosePlan, selectPlan } from './api/plans';
import { PlanList, planValue } from './PlanList';
import { ui } from '@/stores/ui';
import { deferredPaysOff, planTitle } from './PlanCard';
import { DownPaymentTable } from './DownPaymentTable';
import { LeaseNote } from './PlanCard';
import { isDeferredInterest, isLease, leaseCostCents, type MoneyRow } from './plans';

/** totalLabel names everything the patient pays: with the down payment (a lease's initial payment) when there is one. */
function totalLabel(p: PaymentPlan): string {
  if (p.downPaymentCents <= 0) return translate('offers.review.totalCost');
  const down = formatCents(p.downPaymentCents);
  return isLease(p) ? translate('offers.review.totalWithInitial', { down }) : translate('offers.review.totalWithDown', { down });
}

/**
 * reviewRows are the chosen plan's figures, each as the plan states it: due
 * today, financed (a lease's cash price), the payments (a promotion's
 * suggested ones), the APR (a promotion's if not paid in full in time), the
 * finance charge, the total of payments, a lease's cost beyond the cash
 * price, and everything the patient pays.
 */
export function reviewRows(p: PaymentPlan): MoneyRow[] {
  const lease = isLease(p);
  const deferred = !lease && isDeferredInterest(p);
  const row = (label: string, value: string): MoneyRow => ({ label, value });
  const down = p.downPaymentCents > 0;
  return [
    ...(down ? [row(translate(lease ? 'offers.review.initialPayment' : 'offers.review.dueToday'), formatCents(p.downPaymentCents))] : []),
    row(translate(lease ? 'offers.review.cashPrice' : 'offers.review.amountFinanced'), formatCents(p.amountFinancedCents)),
    row(translate(deferred ? 'offers.review.suggestedPayments' : 'offers.review.payments'), paymentsLine(p)),
    ...(lease
      ? []
      : [row(deferred ? translate('offers.review.aprIfNotPaid', { count: p.durationMonths }) : translate('offers.review.apr'), formatApr(p.apr))]),
    ...(lease ? [] : [row(translate('offers.review.financeCharge'), formatCents(p.financeChargeCents))]),
    row(translate('offers.review.totalOfPayments'), formatCents(p.totalOfPaymentsCents)),
    ...(lease ? [row(translate('offers.review.costOfOwnership'), formatCents(leaseCostCents(p)))] : []),
    ...(lease && !down ? [] : [row(totalLabel(p), formatCents(p.totalCostCents))]),
  ];
}

/** DeferredWarning: how deferred interest works, with the plan's own amount financed, APR and suggested payment. */
function DeferredWarning({ plan }: { plan: PaymentPlan }) {
  const t = useT();
  return (
    <div className="notice notice--warn" style={{ marginTop: 20 }}>
      <h2>{t('offers.review.deferredTitle')}</h2>
      <p style={{ marginBottom: 0 }}>
        {t('offers.review.deferredBody', {
          count: plan.durationMonths,
          amount: formatCents(plan.amountFinancedCents),
          apr: formatApr(plan.apr),
        })}{' '}
        {deferredPaysOff(plan)}
      </p>
    </div>
  );
}

/** PaymentPlanReviewPage: the chosen plan, plainly, before accepting the offer. */
export function PaymentPlanReviewPage() {
  const t = useT();
  const navigate = useFlowNavigate();
  const plan = useFlow((s) => s.selectedPaymentPlan);
  const purchase = useFlow((s) => s.purchaseAmountCents);
  const insurance = useFlow((s) => s.insuranceBenefitsCents);
  const lender = useProviderName(plan?.providerKey);
  const onReviewScreen = useFlow((s) => (plan ? Boolean(s.providers[plan.providerKey]?.selectPaymentPlanOnReviewScreen) : false));
  const told = useFlow((s) => (plan ? s.responses[plan.providerKey]?.selectedPlanCode : undefined));
  /** accept tells the lender the choice first where it was not told on the plans screen, then accepts. */
  const accept = async () => {
    if (!plan) return;
    try {
      if (told !== plan.providerPlanCode) await selectPlan(plan);
      navigate(providerRoute(plan.providerKey, 'acceptOfferSubmit'));
    } catch (e) {
      if (!isHandled(e)) navigate('/error');
    }
  };
  if (!plan) {
    return (
      <div className="card">
        <Page title={t('offers.review.title')}>
          <p>{t('offers.review.noPlan')}</p>
        </Page>
      </div>
    );
  }
  return (
    <div className="card">
      <Page title={t('offers.review.title')}>
        <div className="offer-head" style={{ marginBottom: 16 }}>
          <LenderLogo providerKey={plan.providerKey} />
          <span style={{ fontWeight: 700 }}>{planTitle(plan)}</span>
        </div>
        <div className="review">
          <dl>
            <dt>{t(isDeferredInterest(plan) && !isLease(plan) ? 'offers.review.suggestedMonthly' : 'offers.review.monthly')}</dt>
            <dd className="plan__monthly">{formatCents(plan.monthlyAmountCents)}</dd>
            {reviewRows(plan).map((r) => (
              <Fragment key={r.label}>
                <dt>{r.label}</dt>
                <dd>{r.value}</dd>
              </Fragment>
            ))}
          </dl>
        </div>
        {plan.downPaymentCents > 0 && !isLease(plan) ? (
          <div style={{ marginTop: 16 }}>
            <DownPaymentTable plan={plan} treatmentCents={purchase} insuranceCents={insurance} schedule />
          </div>
        ) : null}
        {isLease(plan) ? (
          <p style={{ marginTop: 16 }}>
            <LeaseNote plan={plan} />
          </p>
        ) : null}
        {!isLease(plan) && isDeferredInterest(plan) ? <DeferredWarning plan={plan} /> : null}
        <p style={{ marginTop: 16 }}>{t('offers.review.acceptNote', { lender })}</p>
        {onReviewScreen ? <ChangePlan plan={plan} /> : null}
        <div className="actions">
          <Button onClick={() => void accept()}>{t('offers.review.accept')}</Button>
          <Button variant="secondary" onClick={() => navigate(providerRoute(plan.providerKey, 'paymentPlans'))}>
            {t('offers.review.different')}
          </Button>
          <Button variant="link" onClick={() => ui.set({ learnHow: plan })}>
            {t('offers.review.howItWorks')}
          </Button>
        </div>
      </Page>
    </div>
  );
}

/**
 * ChangePlan: for a lender that takes the choice on the review screen
 * (selectPaymentPlanOnReviewScreen), the patient may still change the plan
 * here among the same lender's plans for the same amount.
 */
function ChangePlan({ plan }: { plan: PaymentPlan }) {
  const t = useT();
  const plans = useFlow((s) => s.responses[plan.providerKey]?.paymentPlans ?? []);
  const amount = useFlow((s) => s.responses[plan.providerKey]?.paymentPlansAmountCents ?? plan.amountFinancedCents);
  const approved = useFlow((s) => {
    const r = s.responses[plan.providerKey];
    return (r?.apply ?? r?.preAuth)?.approvedAmountCents ?? amount;
  });
  if (plans.length < 2) return null;
  return (
    <details className="change-plan" style={{ marginTop: 16 }}>
      <summary id="change-plan-title">{t('offers.review.change')}</summary>
      <PlanList
        plans={plans}
        approvedCents={{ [plan.providerKey]: approved }}
        value={planValue(plan)}
        onChange={(v) => {
          const next = plans.find((p) => planValue(p) === v);
          if (next) choosePlan(next);
        }}
        labelledBy="change-plan-title"
      />
    </details>
  );
}
