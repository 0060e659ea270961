import { Modal } from '@/components/Modal';
import type { PaymentPlan } from '@/lib/api/types';
import { formatApr, formatCents } from '@/lib/money';
import { isDeferredInterest, learnHowMultiplier } from './plans';

/** LearnHowDrawer: the Financing Information drawer for one plan (docs/behaviour.md, "Plans and offers"). */
export default function LearnHowDrawer({ plan, onClose }: { plan: PaymentPlan; onClose: () => void }) {
  const promo = isDeferredInterest(plan);
  const months = plan.durationMonths;
  const multiplier = learnHowMultiplier(months);
  const financed = plan.amountFinancedCents || plan.totalCostCents;
  const boxes = promo
    ? [
        ['Amount Financed', formatCents(financed)],
        ['Suggested Payments', `${formatCents(plan.monthlyAmountCents)} per month`],
        ['Promotional Period', `${months} months`],
      ]
    : [
        ['Total Payments With Interest', formatCents(plan.totalCostCents)],
        ['Required Payments', `${formatCents(plan.monthlyAmountCents)} per month`],
        ['Payoff Period', `${months} months`],
      ];
  return (
    <Modal
      variant="drawer"
      onClose={onClose}
      closeLabel="Close"
      title={promo ? `Promo Financing for ${months} months` : `Fixed Pay Financing for ${months} months`}
    >
      <div className="boxes">
        {boxes.map(([k, v]) => (
          <div key={k} className="notice">
            <div className="muted">{k}</div>
            <div className="box-value">{v}</div>
          </div>
        ))}
      </div>
      {promo ? (
        <>
          <p>
            No interest is charged if you pay the whole amount within {months} months. Pay at least the suggested amount each month to finish in time.
          </p>
          <p>
            <strong>If anything is left after {months} months</strong>, interest at {formatApr(plan.apr)} APR is charged from the purchase date on the
            whole original amount — not only on what is left.
          </p>
        </>
      ) : (
        <p>
          Your payment stays the same every month for {months} months at {formatApr(plan.apr)} APR.
          {multiplier ? ` Each month you pay about ${multiplier.toFixed(4)}% of the amount financed.` : ''}
        </p>
      )}
    </Modal>
  );
}
