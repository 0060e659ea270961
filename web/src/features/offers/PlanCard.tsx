import * as RadioGroup from '@radix-ui/react-radio-group';
import { LenderLogo } from '@/components/LenderLogo';
import type { PaymentPlan } from '@/lib/api/types';
import { formatApr, formatCents } from '@/lib/money';
import {
  EARLY_PURCHASE_DAYS,
  financeChargeCents,
  isDeferredInterest,
  isEarlyPurchaseOption,
  isFixedRate,
  isLease,
  suggestedDeferredPaymentCents,
} from './plans';
import { ui } from '@/stores/ui';
import { useFlow } from '@/stores/flow';

export function planTitle(p: PaymentPlan): string {
  // A lease is never described as credit: no "no interest", no APR.
  if (isEarlyPurchaseOption(p)) return `Lease-to-own, early purchase option: pay the cash price within ${EARLY_PURCHASE_DAYS} days`;
  if (isLease(p)) return `Lease-to-own: ${p.durationMonths} monthly payments`;
  if (isDeferredInterest(p)) return `No interest if paid in full in ${p.durationMonths} months`;
  if (isFixedRate(p)) return `Fixed monthly payments for ${p.durationMonths} months`;
  return `${p.durationMonths} months`;
}

/** PlanFacts: the money of a plan, as it is: due today, financed, payments, and the total (or a lease's cost of ownership). */
export function PlanFacts({ plan, id }: { plan: PaymentPlan; id?: string }) {
  const lease = isLease(plan);
  return (
    <span className="plan__facts" id={id}>
      {plan.downPaymentCents > 0 ? <span>Due today {formatCents(plan.downPaymentCents)}</span> : null}
      {plan.downPaymentCents > 0 ? <span>Amount financed {formatCents(plan.amountFinancedCents)}</span> : null}
      <span>
        {plan.durationMonths} payments of {formatCents(plan.monthlyAmountCents)}
      </span>
      {lease ? null : <span>APR {formatApr(plan.apr)}</span>}
      <span>
        {lease ? 'Cost of ownership' : 'Total cost'} {formatCents(plan.totalCostCents)}
      </span>
    </span>
  );
}

/** LeaseNote: what a lease is, and its early purchase option. */
export function LeaseNote({ plan }: { plan: PaymentPlan }) {
  return (
    <span className="plan__example" style={{ display: 'block' }}>
      This is a lease, not a loan or credit. Early purchase option: pay the cash price of {formatCents(plan.amountFinancedCents)} within{' '}
      {EARLY_PURCHASE_DAYS} days and own it with nothing more to pay; after that, the full cost of ownership applies.
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
  return (
    <span className="plan__facts plan__details">
      <span>Amount financed {formatCents(plan.amountFinancedCents)}</span>
      <span>Finance charge {formatCents(financeChargeCents(plan))}</span>
      <span>Total of payments {formatCents(plan.totalCostCents - plan.downPaymentCents)}</span>
    </span>
  );
}

export interface PlanCardProps {
  plan: PaymentPlan;
  financedAmountCents: number;
  suggested?: boolean;
  fullyCovered?: boolean;
  /** The partner lender whose plan this is (plans.ts subLenderOf): its logo and name replace the lender's. */
  partner?: { name: string; logo: string };
}

/** PlanCard: a selectable radio-style card with logo, monthly payment, what is due today, APR (credit) or cost of ownership (lease), total and the deferred-interest example. */
export function PlanCard({ plan, financedAmountCents, suggested = false, fullyCovered = true, partner }: PlanCardProps) {
  const details = useFlow((s) => s.providers[plan.providerKey]?.showPaymentPlanDetails);
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
              <small>/month</small>
            </span>
            <LenderLogo providerKey={plan.providerKey} logo={partner?.logo} />
          </span>
          {partner ? (
            <span className="muted" style={{ display: 'block' }}>
              From {partner.name}
            </span>
          ) : null}
          <span style={{ display: 'block', fontWeight: 700, marginBottom: 4 }}>
            {planTitle(plan)} {suggested ? <span className="badge">Suggested</span> : null}
          </span>
          <PlanFacts plan={plan} id={`${id}-desc`} />
          {details && !isLease(plan) ? <PlanDetails plan={plan} /> : null}
          {plan.description ? <span style={{ display: 'block', marginTop: 4 }}>{plan.description}</span> : null}
          {isLease(plan) ? <LeaseNote plan={plan} /> : null}
          {!isLease(plan) && isDeferredInterest(plan) ? (
            <span className="plan__example" style={{ display: 'block' }}>
              If {formatCents(financedAmountCents, { whole: true })} is not paid in full within {plan.durationMonths} months, interest is charged from
              the purchase date on the whole amount. Paying {formatCents(suggestedDeferredPaymentCents(financedAmountCents, plan.durationMonths))} a
              month pays it off in time.
            </span>
          ) : null}
          {!fullyCovered ? (
            <span style={{ display: 'block', color: 'var(--error)', fontWeight: 600 }}>*Requested financed amount not fully covered</span>
          ) : null}
        </span>
      </RadioGroup.Item>
      <button type="button" className="btn btn--link" onClick={() => ui.set({ learnHow: plan })} style={{ minHeight: 44 }}>
        How this plan works<span className="visually-hidden">: {planTitle(plan)}</span>
      </button>
    </div>
  );
}
