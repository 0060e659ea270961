import { Modal } from '@/components/Modal';
import type { PaymentPlan } from '@/lib/api/types';
import { locale, t as translate, Trans, useT } from '@/lib/i18n';
import { formatApr, formatCents, paymentsLine } from '@/lib/money';
import { EARLY_PURCHASE_DAYS, isDeferredInterest, isLease, leaseCostCents, learnHowEstimate } from './plans';

/** Boxes: the drawer's figures, each in its own box, every one as the plan states it. */
function Boxes({ boxes }: { boxes: string[][] }) {
  return (
    <div className="boxes">
      {boxes.map(([k, v]) => (
        <div key={k} className="notice">
          <div className="muted">{k}</div>
          <div className="box-value">{v}</div>
        </div>
      ))}
    </div>
  );
}

/** LeaseDrawer: how a lease-to-own plan works — a lease, not credit: its cash price, payments, their cost beyond the cash price and the early purchase option, never an APR. */
function LeaseDrawer({ plan, onClose }: { plan: PaymentPlan; onClose: () => void }) {
  const t = useT();
  const cost = leaseCostCents(plan);
  const boxes = [
    [t('offers.learnHow.cashPrice'), formatCents(plan.amountFinancedCents)],
    [t('offers.learnHow.leasePayments'), paymentsLine(plan)],
    [t('offers.learnHow.totalOfPayments'), formatCents(plan.totalOfPaymentsCents)],
    [t('offers.learnHow.costOfOwnership'), formatCents(cost)],
  ];
  return (
    <Modal variant="drawer" onClose={onClose} closeLabel={t('offers.close')} title={t('offers.learnHow.leaseTitle', { count: plan.paymentCount })}>
      <Boxes boxes={boxes} />
      <p>{t('offers.learnHow.leaseIntro')}</p>
      {plan.downPaymentCents > 0 ? <p>{t('offers.learnHow.initialPayment', { amount: formatCents(plan.downPaymentCents) })}</p> : null}
      <p>
        <Trans
          i18nKey="offers.learnHow.earlyPurchase"
          values={{ amount: formatCents(plan.amountFinancedCents), days: EARLY_PURCHASE_DAYS }}
          components={{ strong: <strong /> }}
        />
        {cost > 0
          ? ` ${t('offers.learnHow.afterEarlyPurchase', { days: EARLY_PURCHASE_DAYS, total: formatCents(plan.totalOfPaymentsCents), cost: formatCents(cost) })}`
          : null}
      </p>
    </Modal>
  );
}

/**
 * creditBoxes are the figures of a credit plan's drawer: due today, the
 * amount financed, the payments (a promotion's suggested ones), their total
 * and all the patient pays, and the period.
 */
function creditBoxes(plan: PaymentPlan): string[][] {
  const promo = isDeferredInterest(plan);
  const down = plan.downPaymentCents > 0;
  const period = translate('offers.learnHow.months', { count: promo ? plan.durationMonths : plan.paymentCount });
  return [
    ...(down ? [[translate('offers.learnHow.dueToday'), formatCents(plan.downPaymentCents)]] : []),
    [translate('offers.learnHow.amountFinanced'), formatCents(plan.amountFinancedCents)],
    [translate(promo ? 'offers.learnHow.suggestedPayments' : 'offers.learnHow.requiredPayments'), paymentsLine(plan)],
    [translate('offers.learnHow.totalOfPayments'), formatCents(plan.totalOfPaymentsCents)],
    ...(down ? [[translate('offers.learnHow.totalYouPay'), formatCents(plan.totalCostCents)]] : []),
    [translate(promo ? 'offers.learnHow.promotionalPeriod' : 'offers.learnHow.payoffPeriod'), period],
  ];
}

/** estimateSentence: the learn-how multiplier as an estimate, only when it agrees with the plan's payment to the dollar (plans.ts learnHowEstimate). */
function estimateSentence(plan: PaymentPlan): string | null {
  const multiplier = learnHowEstimate(plan);
  if (multiplier === undefined) return null;
  const percent = multiplier.toLocaleString(locale(), { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return translate('offers.learnHow.multiplier', { percent });
}

/** LearnHowDrawer: the Financing Information drawer for one plan (docs/behaviour.md, "Plans and offers"). */
export default function LearnHowDrawer({ plan, onClose }: { plan: PaymentPlan; onClose: () => void }) {
  const t = useT();
  if (isLease(plan)) return <LeaseDrawer plan={plan} onClose={onClose} />;
  const promo = isDeferredInterest(plan);
  const months = plan.durationMonths;
  const estimate = estimateSentence(plan);
  return (
    <Modal
      variant="drawer"
      onClose={onClose}
      closeLabel={t('offers.close')}
      title={promo ? t('offers.learnHow.promoTitle', { count: months }) : t('offers.learnHow.fixedTitle', { count: months })}
    >
      <Boxes boxes={creditBoxes(plan)} />
      {promo ? (
        <>
          <p>{t('offers.learnHow.promoNoInterest', { count: months })}</p>
          <p>
            <Trans i18nKey="offers.learnHow.promoLeft" count={months} values={{ apr: formatApr(plan.apr) }} components={{ strong: <strong /> }} />
          </p>
        </>
      ) : (
        <p>
          {t('offers.learnHow.fixed', { count: plan.paymentCount, apr: formatApr(plan.apr) })}
          {estimate ? ` ${estimate}` : null}
        </p>
      )}
    </Modal>
  );
}
