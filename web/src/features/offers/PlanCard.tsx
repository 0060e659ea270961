import * as RadioGroup from '@radix-ui/react-radio-group';
import { t as translate, useT } from '@/lib/i18n';
import { LenderLogo } from '@/components/LenderLogo';
import type { PaymentPlan } from '@/lib/api/types';
import { formatApr, formatCents, paymentsLine } from '@/lib/money';
import { EARLY_PURCHASE_DAYS, isDeferredInterest, isEarlyPurchaseOption, isFixedRate, isLease, leaseCostCents } from './plans';
import { ui } from '@/stores/ui';
import { useFlow } from '@/stores/flow';

/** planTitle names a plan in the app's language; call it at render. */
export function planTitle(p: PaymentPlan): string {
  const count = p.durationMonths;
  // A lease is never described as credit: no "no interest", no APR.
  if (isEarlyPurchaseOption(p)) return translate('offers.card.earlyPurchaseTitle', { days: EARLY_PURCHASE_DAYS });
  if (isLease(p)) return translate('offers.card.leaseTitle', { count: p.paymentCount });
  if (isDeferredInterest(p)) return translate('offers.card.deferredTitle', { count });
  if (isFixedRate(p)) return translate('offers.card.fixedTitle', { count });
  return translate('offers.card.monthsTitle', { count });
}

/** totalLine is everything the patient pays (totalCostCents), naming the down payment (a lease's initial payment) when there is one. */
export function totalLine(p: PaymentPlan): string {
  const amount = formatCents(p.totalCostCents);
  if (p.downPaymentCents <= 0) return translate('offers.card.totalCost', { amount });
  const down = formatCents(p.downPaymentCents);
  return isLease(p) ? translate('offers.card.totalWithInitial', { amount, down }) : translate('offers.card.totalWithDown', { amount, down });
}

/** LeaseFacts: a lease's money, as a lease states it — the cash price, the payments, their total and what they cost beyond the cash price; never financed, never an APR. */
function LeaseFacts({ plan, id }: { plan: PaymentPlan; id?: string }) {
  const t = useT();
  const down = plan.downPaymentCents > 0;
  return (
    <span className="plan__facts" id={id}>
      {down ? <span>{t('offers.card.initialPayment', { amount: formatCents(plan.downPaymentCents) })}</span> : null}
      <span>{t('offers.card.cashPrice', { amount: formatCents(plan.amountFinancedCents) })}</span>
      <span>{paymentsLine(plan)}</span>
      <span>{t('offers.card.totalOfPayments', { amount: formatCents(plan.totalOfPaymentsCents) })}</span>
      <span>{t('offers.card.costOfOwnership', { amount: formatCents(leaseCostCents(plan)) })}</span>
      {down ? <span>{totalLine(plan)}</span> : null}
    </span>
  );
}

/**
 * PlanFacts: the money of a plan, every figure as the plan states it: due
 * today, financed, its payments (a promotion's suggested ones), the APR
 * (a promotion's is in its example) and all the patient pays.
 */
export function PlanFacts({ plan, id }: { plan: PaymentPlan; id?: string }) {
  const t = useT();
  if (isLease(plan)) return <LeaseFacts plan={plan} id={id} />;
  const down = plan.downPaymentCents > 0;
  const deferred = isDeferredInterest(plan);
  return (
    <span className="plan__facts" id={id}>
      {down ? <span>{t('offers.card.dueToday', { amount: formatCents(plan.downPaymentCents) })}</span> : null}
      {down ? <span>{t('offers.card.amountFinanced', { amount: formatCents(plan.amountFinancedCents) })}</span> : null}
      <span>{deferred ? t('offers.card.suggestedPayments', { payments: paymentsLine(plan) }) : paymentsLine(plan)}</span>
      {deferred ? null : <span>{t('offers.card.apr', { apr: formatApr(plan.apr) })}</span>}
      <span>{totalLine(plan)}</span>
    </span>
  );
}

/** LeaseNote: what a lease is, and its early purchase option at the cash price. */
export function LeaseNote({ plan }: { plan: PaymentPlan }) {
  const t = useT();
  return (
    <span className="plan__example" style={{ display: 'block' }}>
      {t('offers.card.leaseNote', { amount: formatCents(plan.amountFinancedCents), days: EARLY_PURCHASE_DAYS })}
    </span>
  );
}

/**
 * deferredPaysOff says how the suggested payment of a promotion pays it off:
 * in time, or in fewer payments than the promotion's months (paymentCount).
 */
export function deferredPaysOff(p: PaymentPlan): string {
  const monthly = formatCents(p.monthlyAmountCents);
  if (p.paymentCount < p.durationMonths) return translate('offers.card.paysOffIn', { count: p.paymentCount, monthly });
  return translate('offers.card.paysOffInTime', { monthly });
}

/**
 * DeferredExample: what happens if a promotion is not paid in full in time,
 * worked with the plan's own amount financed, suggested payment and APR, so
 * it can never say other than the card.
 */
export function DeferredExample({ plan }: { plan: PaymentPlan }) {
  const t = useT();
  const financed = formatCents(plan.amountFinancedCents);
  return (
    <span className="plan__example" style={{ display: 'block' }}>
      {t('offers.card.deferredExample', { count: plan.durationMonths, financed, apr: formatApr(plan.apr) })} {deferredPaysOff(plan)}
    </span>
  );
}

/**
 * PlanDetails is the full cost of a credit plan, shown on the card for a
 * lender whose catalogue entry asks for it (showPaymentPlanDetails): the
 * amount financed, the finance charge and the total of payments, the way a
 * loan's disclosure states them. Spans, not a list: it sits inside the
 * card's radio button.
 */
export function PlanDetails({ plan }: { plan: PaymentPlan }) {
  const t = useT();
  return (
    <span className="plan__facts plan__details">
      <span>{t('offers.card.amountFinanced', { amount: formatCents(plan.amountFinancedCents) })}</span>
      <span>{t('offers.card.financeCharge', { amount: formatCents(plan.financeChargeCents) })}</span>
      <span>{t('offers.card.totalOfPayments', { amount: formatCents(plan.totalOfPaymentsCents) })}</span>
    </span>
  );
}

export interface PlanCardProps {
  plan: PaymentPlan;
  suggested?: boolean;
  fullyCovered?: boolean;
  /** The partner lender whose plan this is (plans.ts subLenderOf): its logo and name replace the lender's. */
  partner?: { name: string; logo: string };
}

/** PlanCard: a selectable radio-style card with logo, monthly payment, what is due today, APR (credit) or cost of ownership (lease), total and the deferred-interest example. */
export function PlanCard({ plan, suggested = false, fullyCovered = true, partner }: PlanCardProps) {
  const t = useT();
  const details = useFlow((s) => s.lenders[plan.providerKey]?.showPaymentPlanDetails);
  const id = `plan-${plan.providerKey}-${plan.providerPlanCode}`;
  return (
    <div className="plan-wrap">
      <RadioGroup.Item value={`${plan.providerKey}|${plan.providerPlanCode}`} className="plan" id={id} aria-describedby={`${id}-desc`}>
        <span className="plan__radio" aria-hidden="true">
          <RadioGroup.Indicator className="plan__dot" />
        </span>
        <span style={{ display: 'block' }}>
          <span style={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', gap: 8, alignItems: 'center' }}>
            <span className="plan__monthly">
              {formatCents(plan.monthlyAmountCents)}
              <small>{t('offers.card.perMonth')}</small>
            </span>
            <LenderLogo providerKey={plan.providerKey} logo={partner?.logo} />
          </span>
          {partner ? (
            <span className="muted" style={{ display: 'block' }}>
              {t('offers.card.from', { partner: partner.name })}
            </span>
          ) : null}
          <span style={{ display: 'block', fontWeight: 700, marginBottom: 4 }}>
            {planTitle(plan)} {suggested ? <span className="badge">{t('offers.card.suggested')}</span> : null}
          </span>
          <PlanFacts plan={plan} id={`${id}-desc`} />
          {details && !isLease(plan) ? <PlanDetails plan={plan} /> : null}
          {plan.description ? <span style={{ display: 'block', marginTop: 4 }}>{plan.description}</span> : null}
          {isLease(plan) ? <LeaseNote plan={plan} /> : null}
          {!isLease(plan) && isDeferredInterest(plan) ? <DeferredExample plan={plan} /> : null}
          {!fullyCovered ? <span style={{ display: 'block', color: 'var(--error)', fontWeight: 600 }}>{t('offers.card.notCovered')}</span> : null}
        </span>
      </RadioGroup.Item>
      <button type="button" className="btn btn--link" onClick={() => ui.set({ learnHow: plan })} style={{ minHeight: 44 }}>
        {t('offers.card.howItWorks')}
        <span className="visually-hidden">: {planTitle(plan)}</span>
      </button>
    </div>
  );
}
