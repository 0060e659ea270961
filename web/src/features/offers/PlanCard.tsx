import * as RadioGroup from '@radix-ui/react-radio-group';
import { LenderLogo } from '@/components/LenderLogo';
import type { PaymentPlan } from '@/lib/api/types';
import { formatApr, formatCents } from '@/lib/money';
import { isDeferredInterest, isFixedRate, suggestedDeferredPaymentCents } from './plans';
import { ui } from '@/stores/ui';

export function planTitle(p: PaymentPlan): string {
  if (isDeferredInterest(p)) return `No interest if paid in full in ${p.durationMonths} months`;
  if (isFixedRate(p)) return `Fixed monthly payments for ${p.durationMonths} months`;
  return `${p.durationMonths} months`;
}

export interface PlanCardProps {
  plan: PaymentPlan;
  financedAmountCents: number;
  suggested?: boolean;
  fullyCovered?: boolean;
}

/** PlanCard: a selectable radio-style card with logo, monthly payment, APR, total and the deferred-interest example. */
export function PlanCard({ plan, financedAmountCents, suggested = false, fullyCovered = true }: PlanCardProps) {
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
            <LenderLogo providerKey={plan.providerKey} />
          </span>
          <span style={{ display: 'block', fontWeight: 700, marginBottom: 4 }}>
            {planTitle(plan)} {suggested ? <span className="badge">Suggested</span> : null}
          </span>
          <span className="plan__facts" id={`${id}-desc`}>
            <span>APR {formatApr(plan.apr)}</span>
            <span>Total cost {formatCents(plan.totalCostCents)}</span>
            <span>{plan.durationMonths} payments</span>
          </span>
          {plan.description ? <span style={{ display: 'block', marginTop: 4 }}>{plan.description}</span> : null}
          {isDeferredInterest(plan) ? (
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
