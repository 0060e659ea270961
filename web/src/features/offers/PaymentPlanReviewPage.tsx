import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { LenderLogo } from '@/components/LenderLogo';
import { useFlowNavigate } from '@/flow/navigation';
import type { PaymentPlan } from '@/lib/api/types';
import { useT } from '@/lib/i18n';
import { formatApr, formatCents } from '@/lib/money';
import { lenderRoute } from '@/lib/paths';
import { isHandled } from '@/lib/api/client';
import { useFlow, useLenderName } from '@/stores/flow';
import { choosePlan, selectPlan } from './api/plans';
import { PlanList, planValue } from './PlanList';
import { ui } from '@/stores/ui';
import { deferredPaysOff, planTitle } from './PlanCard';
import { DownPaymentTable } from './DownPaymentTable';
import { LeaseNote } from './PlanCard';
import { isDeferredInterest, isLease } from './plans';
import { PlanFigures } from '@/components/PlanFigures';

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
  const lender = useLenderName(plan?.providerKey);
  const onReviewScreen = useFlow((s) => (plan ? Boolean(s.lenders[plan.providerKey]?.selectPaymentPlanOnReviewScreen) : false));
  const told = useFlow((s) => (plan ? s.responses[plan.providerKey]?.selectedPlanCode : undefined));
  /** accept tells the lender the choice first where it was not told on the plans screen, then accepts. */
  const accept = async () => {
    if (!plan) return;
    try {
      if (told !== plan.providerPlanCode) await selectPlan(plan);
      navigate(lenderRoute(plan.providerKey, 'acceptOfferSubmit'));
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
        <PlanFigures plan={plan} />
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
          <Button variant="secondary" onClick={() => navigate(lenderRoute(plan.providerKey, 'paymentPlans'))}>
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
