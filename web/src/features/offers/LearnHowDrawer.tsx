import { Modal } from '@/components/Modal';
import type { PaymentPlan } from '@/lib/api/types';
import { locale, Trans, useT } from '@/lib/i18n';
import { formatApr, formatCents } from '@/lib/money';
import { EARLY_PURCHASE_DAYS, isDeferredInterest, isLease, learnHowMultiplier } from './plans';

/** LeaseDrawer: how a lease-to-own plan works — a lease, not credit: its cost of ownership and early purchase option, never an APR. */
function LeaseDrawer({ plan, onClose }: { plan: PaymentPlan; onClose: () => void }) {
  const t = useT();
  const boxes = [
    [t('offers.learnHow.cashPrice'), formatCents(plan.amountFinancedCents)],
    [t('offers.learnHow.leasePayments'), t('offers.learnHow.payments', { count: plan.durationMonths, amount: formatCents(plan.monthlyAmountCents) })],
    [t('offers.learnHow.costOfOwnership'), formatCents(plan.totalCostCents)],
  ];
  return (
    <Modal variant="drawer" onClose={onClose} closeLabel={t('offers.close')} title={t('offers.learnHow.leaseTitle', { count: plan.durationMonths })}>
      <div className="boxes">
        {boxes.map(([k, v]) => (
          <div key={k} className="notice">
            <div className="muted">{k}</div>
            <div className="box-value">{v}</div>
          </div>
        ))}
      </div>
      <p>{t('offers.learnHow.leaseIntro')}</p>
      {plan.downPaymentCents > 0 ? <p>{t('offers.learnHow.initialPayment', { amount: formatCents(plan.downPaymentCents) })}</p> : null}
      <p>
        <Trans
          i18nKey="offers.learnHow.earlyPurchase"
          values={{ amount: formatCents(plan.amountFinancedCents), days: EARLY_PURCHASE_DAYS }}
          components={{ strong: <strong /> }}
        />
      </p>
    </Modal>
  );
}

/** LearnHowDrawer: the Financing Information drawer for one plan (docs/behaviour.md, "Plans and offers"). */
export default function LearnHowDrawer({ plan, onClose }: { plan: PaymentPlan; onClose: () => void }) {
  const t = useT();
  if (isLease(plan)) return <LeaseDrawer plan={plan} onClose={onClose} />;
  const promo = isDeferredInterest(plan);
  const months = plan.durationMonths;
  const multiplier = learnHowMultiplier(months);
  const financed = plan.amountFinancedCents || plan.totalCostCents;
  const perMonth = t('offers.learnHow.perMonth', { amount: formatCents(plan.monthlyAmountCents) });
  const period = t('offers.learnHow.months', { count: months });
  const boxes = promo
    ? [
        [t('offers.learnHow.amountFinanced'), formatCents(financed)],
        [t('offers.learnHow.suggestedPayments'), perMonth],
        [t('offers.learnHow.promotionalPeriod'), period],
      ]
    : [
        ...(plan.downPaymentCents > 0 ? [[t('offers.learnHow.dueToday'), formatCents(plan.downPaymentCents)]] : []),
        [t('offers.learnHow.totalWithInterest'), formatCents(plan.totalCostCents)],
        [t('offers.learnHow.requiredPayments'), perMonth],
        [t('offers.learnHow.payoffPeriod'), period],
      ];
  const percent = multiplier?.toLocaleString(locale(), { minimumFractionDigits: 4, maximumFractionDigits: 4 });
  return (
    <Modal
      variant="drawer"
      onClose={onClose}
      closeLabel={t('offers.close')}
      title={promo ? t('offers.learnHow.promoTitle', { count: months }) : t('offers.learnHow.fixedTitle', { count: months })}
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
          <p>{t('offers.learnHow.promoNoInterest', { count: months })}</p>
          <p>
            <Trans i18nKey="offers.learnHow.promoLeft" count={months} values={{ apr: formatApr(plan.apr) }} components={{ strong: <strong /> }} />
          </p>
        </>
      ) : (
        <p>
          {t('offers.learnHow.fixed', { count: months, apr: formatApr(plan.apr) })}
          {percent ? ` ${t('offers.learnHow.multiplier', { percent })}` : null}
        </p>
      )}
    </Modal>
  );
}
