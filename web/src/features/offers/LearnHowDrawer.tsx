import { Modal } from '@/components/Modal';
import type { PaymentPlan } from '@/lib/api/types';
import { formatApr, formatCents } from '@/lib/money';
import { EARLY_PURCHASE_DAYS, isDeferredInterest, isLease, learnHowMultiplier } from './plans';

/** LeaseDrawer: how a lease-to-own plan works — a lease, not credit: its cost of ownership and early purchase option, never an APR. */
function LeaseDrawer({ plan, onClose }: { plan: PaymentPlan; onClose: () => void }) {
  const boxes = [
    ['Cash Price', formatCents(plan.amountFinancedCents)],
    ['Lease Payments', `${plan.durationMonths} payments of ${formatCents(plan.monthlyAmountCents)}`],
    ['Cost of Ownership', formatCents(plan.totalCostCents)],
  ];
  return (
    <Modal variant="drawer" onClose={onClose} closeLabel="Close" title={`Lease-to-own for ${plan.durationMonths} months`}>
      <div className="boxes">
        {boxes.map(([k, v]) => (
          <div key={k} className="notice">
            <div className="muted">{k}</div>
            <div className="box-value">{v}</div>
          </div>
        ))}
      </div>
      <p>This is a lease, not a loan or credit. When every lease payment is made, what was leased is yours.</p>
      {plan.downPaymentCents > 0 ? <p>The initial payment of {formatCents(plan.downPaymentCents)} is due today.</p> : null}
      <p>
        <strong>Early purchase option:</strong> pay the cash price of {formatCents(plan.amountFinancedCents)} within {EARLY_PURCHASE_DAYS} days and
        pay nothing more. After {EARLY_PURCHASE_DAYS} days the full cost of ownership applies, which is more than the cash price.
      </p>
    </Modal>
  );
}

/** LearnHowDrawer: the Financing Information drawer for one plan (docs/behaviour.md, "Plans and offers"). */
export default function LearnHowDrawer({ plan, onClose }: { plan: PaymentPlan; onClose: () => void }) {
  if (isLease(plan)) return <LeaseDrawer plan={plan} onClose={onClose} />;
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
        ...(plan.downPaymentCents > 0 ? [['Due Today', formatCents(plan.downPaymentCents)]] : []),
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
