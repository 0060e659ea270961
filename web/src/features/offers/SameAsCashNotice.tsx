import { useState, type ReactNode } from 'react';
import { Button } from '@/components/Button';
import { Modal } from '@/components/Modal';
import type { PaymentPlan } from '@/lib/api/types';
import { useT } from '@/lib/i18n';
import { formatCents, paymentsLine } from '@/lib/money';
import { EARLY_PURCHASE_DAYS, isEarlyPurchaseOption, isLease } from './plans';

/*
 * The same-as-cash notice (docs/behaviour.md, "Plans and offers"): before a
 * lease's early purchase option (Snap's SNP-SAC-101: isEarlyPurchaseOption,
 * the figures' own rule, never a plan code or a description) goes on, the
 * patient acknowledges that the cash price holds
 * only if paid in full within 101 days, and that the lease's full cost
 * applies after that. Every figure is the plan's own (docs/money.md).
 */

/** isSameAsCash: a lease's early purchase option, whose payments add up to its cash price. A credit plan is never one, whatever it calls itself. */
export const isSameAsCash = isEarlyPurchaseOption;

/** fullLeaseOf is the lease that applies after the option's days: the one other lease of the same lender for the same cash price, if there is exactly one. */
export function fullLeaseOf(option: PaymentPlan, plans: PaymentPlan[]): PaymentPlan | undefined {
  const leases = plans.filter(
    (p) =>
      p !== option && p.providerKey === option.providerKey && isLease(p) && !isSameAsCash(p) && p.amountFinancedCents === option.amountFinancedCents,
  );
  return leases.length === 1 ? leases[0] : undefined;
}

/** SameAsCashNotice says what the early purchase option costs, and what the lease costs after its days. */
export function SameAsCashNotice({ plan, lease, onAnswer }: { plan: PaymentPlan; lease?: PaymentPlan; onAnswer: (go: boolean) => void }) {
  const t = useT();
  const cashPrice = formatCents(plan.amountFinancedCents);
  const days = EARLY_PURCHASE_DAYS;
  return (
    <Modal title={t('modals.sameAsCash.title')} onClose={() => onAnswer(false)}>
      <p>{t('modals.sameAsCash.lease', { cashPrice })}</p>
      {plan.downPaymentCents > 0 ? <p>{t('modals.sameAsCash.initial', { amount: formatCents(plan.downPaymentCents) })}</p> : null}
      <p>{t('modals.sameAsCash.within', { cashPrice, days, payments: paymentsLine(plan) })}</p>
      <p>
        {lease
          ? t('modals.sameAsCash.after', {
              days,
              leaseTotal: formatCents(lease.totalOfPaymentsCents),
              leasePayments: paymentsLine(lease),
              leaseCost: formatCents(lease.totalOfPaymentsCents - lease.amountFinancedCents),
            })
          : t('modals.sameAsCash.afterNoFigures', { days })}
      </p>
      <div className="actions">
        <Button autoFocus onClick={() => onAnswer(true)}>
          {t('modals.sameAsCash.understand')}
        </Button>
        <Button variant="secondary" onClick={() => onAnswer(false)}>
          {t('modals.sameAsCash.other')}
        </Button>
      </div>
    </Modal>
  );
}

/**
 * useSameAsCashNotice gates going on with a plan: confirm answers true at
 * once for any other plan, and for a same-as-cash one once the patient has
 * acknowledged the notice (false when they choose another plan). Render
 * `notice` on the page.
 */
export function useSameAsCashNotice(plans: PaymentPlan[]): { confirm: (plan: PaymentPlan) => Promise<boolean>; notice: ReactNode } {
  const [asking, setAsking] = useState<{ plan: PaymentPlan; answer: (go: boolean) => void } | null>(null);
  const confirm = (plan: PaymentPlan) => (isSameAsCash(plan) ? new Promise<boolean>((answer) => setAsking({ plan, answer })) : Promise.resolve(true));
  const notice = asking ? (
    <SameAsCashNotice
      plan={asking.plan}
      lease={fullLeaseOf(asking.plan, plans)}
      onAnswer={(go) => {
        setAsking(null);
        asking.answer(go);
      }}
    />
  ) : null;
  return { confirm, notice };
}
