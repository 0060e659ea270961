import { Fragment } from 'react';
import type { PaymentPlan } from '@/lib/api/types';
import { t as translate, useT } from '@/lib/i18n';
import { formatApr, formatCents, isDeferredInterest, isLease, leaseCostCents, paymentsLine, type MoneyRow } from '@/lib/money';

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

/**
 * PlanFigures: the chosen plan's figures as one list — the monthly payment
 * first, then reviewRows. The review screen and the signing screen show the
 * same list, so what is signed is what was reviewed.
 */
export function PlanFigures({ plan }: { plan: PaymentPlan }) {
  const t = useT();
  return (
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
  );
}
