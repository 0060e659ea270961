import type { PaymentPlan, LenderConfig } from '@/lib/api/types';
import { t } from '@/lib/i18n';
import { formatCents, isDeferredInterest, isLease, leaseCostCents, paymentsLine, type MoneyRow } from '@/lib/money';

// The plan facts the shared screens need too live in lib/money.ts; the offers feature names them from here as well.
export { isDeferredInterest, isLease, leaseCostCents, type MoneyRow };

type SubLender = NonNullable<LenderConfig['subLenders']>[number];

/** The suggested plan is the one with the highest monthly amount (docs/behaviour.md, "Plans and offers"). */
export function suggestedPlan(plans: PaymentPlan[]): PaymentPlan | undefined {
  return plans.reduce<PaymentPlan | undefined>((best, p) => (!best || p.monthlyAmountCents > best.monthlyAmountCents ? p : best), undefined);
}

export const isFixedRate = (p: PaymentPlan) => p.typeId === 'fixed_rate';

/**
 * A plan can be chosen when what it finances (the lender's amount financed:
 * the amount asked less the plan's down payment) is more than nothing, at
 * least its minimum, at most its maximum where it has one, and at most the
 * approved amount — the server's rule in flow/plan.go, so the browser never
 * offers a plan the server refuses (docs/behaviour.md, "Plans and offers").
 */
export function isEligible(p: PaymentPlan, approvedCents?: number): boolean {
  const financed = p.amountFinancedCents;
  if (financed <= 0 || financed < (p.minAmountCents ?? 0)) return false;
  if (p.maxAmountCents && financed > p.maxAmountCents) return false;
  return approvedCents === undefined || financed <= approvedCents;
}

/**
 * tooSmallFor: when no plan can be chosen because every one of them
 * finances less than its own minimum, the amount they were priced for and
 * the least any of them finances; otherwise undefined (some plan can be
 * chosen, or the reason is another: above a maximum or the approval).
 */
export function tooSmallFor(plans: PaymentPlan[], approved: Record<string, number>): { amountCents: number; leastCents: number } | undefined {
  if (!plans.length || plans.some((p) => isEligible(p, approved[p.providerKey]))) return undefined;
  if (!plans.every((p) => p.amountFinancedCents < (p.minAmountCents ?? 0))) return undefined;
  return { amountCents: Math.max(...plans.map((p) => p.amountFinancedCents)), leastCents: Math.min(...plans.map((p) => p.minAmountCents)) };
}

/** Learn-how multiplier by duration (docs/behaviour.md, "Plans and offers"). */
export function learnHowMultiplier(months: number): number | undefined {
  return ({ 24: 4.9876, 36: 3.6605, 48: 3.0377, 60: 2.6997 } as Record<number, number>)[months];
}

/**
 * learnHowEstimate is the multiplier the learn-how drawer may quote as an
 * estimate of a plan's monthly payment: only when the amount financed times
 * it is within a dollar of the plan's own payment, so the estimate never
 * contradicts the card.
 */
export function learnHowEstimate(p: PaymentPlan): number | undefined {
  const m = learnHowMultiplier(p.durationMonths);
  if (m === undefined) return undefined;
  return Math.abs((p.amountFinancedCents * m) / 100 - p.monthlyAmountCents) <= 100 ? m : undefined;
}

/** Requested credit limit for the down-payment table (docs/behaviour.md, "Plans and offers"). */
export function requestedCreditLimitCents(purchaseCents: number, insuranceCents = 0): number {
  return Math.min(200000, Math.floor((purchaseCents + insuranceCents) / 2));
}

export function remainingObligationCents(purchaseCents: number, limitCents: number): number {
  return Math.max(0, purchaseCents - limitCents);
}

/** Days within which a lease's early purchase option lets the patient buy for the cash price (Snap's 101-day option). */
export const EARLY_PURCHASE_DAYS = 101;

/** The lease plan that is the early purchase option: its payments add up to the cash price. */
export const isEarlyPurchaseOption = (p: PaymentPlan) => isLease(p) && p.totalOfPaymentsCents <= p.amountFinancedCents;

const less = (cents: number) => `\u2212${formatCents(cents)}`;

/**
 * The top of the down-payment table: the treatment total, less what is not
 * in this plan (the insurance benefits when that is what it is). Undefined
 * when the treatment cannot start the sum: unknown, or less than the plan
 * covers (the patient asked for more in the estimator).
 */
function treatmentRows(plan: PaymentPlan, treatmentCents: number, insuranceCents: number): MoneyRow[] | undefined {
  const other = treatmentCents - plan.downPaymentCents - plan.amountFinancedCents;
  if (treatmentCents <= 0 || other < 0) return undefined;
  const rows = [{ label: t('offers.downPaymentTable.treatment'), value: formatCents(treatmentCents) }];
  if (other > 0 && other === insuranceCents) rows.push({ label: t('offers.downPaymentTable.insurance'), value: less(other) });
  else if (other > 0) rows.push({ label: t('offers.downPaymentTable.notFinanced'), value: less(other) });
  return rows;
}

/**
 * downPaymentRows is the down-payment table of a plan (docs/decisions.md,
 * "Down-payment table"), in the order a patient follows it: the treatment,
 * the insurance, the down payment due today, the amount financed — the
 * plan's own, which the rows above add up to — then, with `schedule`, the
 * plan's payments and everything the patient pays.
 */
export function downPaymentRows(plan: PaymentPlan, treatmentCents: number, insuranceCents = 0, schedule = false): MoneyRow[] {
  const down = plan.downPaymentCents;
  const top = treatmentRows(plan, treatmentCents, insuranceCents) ?? [
    { label: t('offers.downPaymentTable.asked'), value: formatCents(down + plan.amountFinancedCents) },
  ];
  const rows = [
    ...top,
    { label: t('offers.downPaymentTable.dueToday'), value: less(down) },
    { label: t('offers.downPaymentTable.financed'), value: formatCents(plan.amountFinancedCents) },
  ];
  if (!schedule) return rows;
  return [
    ...rows,
    { label: t('offers.downPaymentTable.payments'), value: paymentsLine(plan) },
    { label: t('offers.downPaymentTable.total', { count: plan.paymentCount }), value: formatCents(plan.totalCostCents) },
  ];
}

/**
 * lenderSizingRows are the two figures of the lender's rule for sizing an
 * offer with a down payment (docs/behaviour.md, "Plans and offers"): the
 * credit limit the rule allows and the part of the treatment above it. They
 * are not what the patient owes, and are shown apart from the table.
 */
export function lenderSizingRows(treatmentCents: number, insuranceCents = 0): MoneyRow[] {
  const limit = requestedCreditLimitCents(treatmentCents, insuranceCents);
  return [
    { label: t('offers.downPaymentTable.limit'), value: formatCents(limit) },
    { label: t('offers.downPaymentTable.remaining'), value: formatCents(remainingObligationCents(treatmentCents, limit)) },
  ];
}

/**
 * The product family a lender's plan filter is keyed by (catalogue
 * paymentPlanFilterOverrides): a card (promotional or revolving), a loan or
 * a lease.
 */
export function productFamily(kind: string | undefined): string {
  if (kind === 'promotional_card' || kind === 'revolving') return 'credit_card';
  if (kind === 'lease_to_own') return 'lease';
  return 'loan';
}

/** planTypesShown: the plan types a lender's filter override lets through, in its order; undefined when it shows every type. */
export function planTypesShown(cfg: LenderConfig | undefined): string[] | undefined {
  const types = cfg?.paymentPlanFilterOverrides?.[productFamily(cfg.kind)];
  return types?.length ? types : undefined;
}

/** filterByType keeps the plans of the types a lender's override shows (every plan of a lender without one). */
export function filterByType(plans: PaymentPlan[], lenders: Record<string, LenderConfig>): PaymentPlan[] {
  return plans.filter((p) => {
    const types = planTypesShown(lenders[p.providerKey]);
    return !types || types.includes(p.typeId);
  });
}

/** The plan types with a short name of their own. */
const NAMED_PLAN_TYPES = [
  'deferred_interest',
  'fixed_rate',
  'fixed_installment_loan',
  'sub_lender_no_interest',
  'sub_lender_promotional_rate',
] as const;

/** planTypeLabel is a plan type's short name for the plan-type filter, in the app's language; a type without one shows as it is. */
export function planTypeLabel(type: string): string {
  return (NAMED_PLAN_TYPES as readonly string[]).includes(type) ? t(`offers.planTypes.${type as (typeof NAMED_PLAN_TYPES)[number]}`) : type;
}

/**
 * subLenderOf is the partner lender behind a plan: the one the plan names,
 * else the one the lender's offer names (offeredProviderId), when the lender
 * passes on partners' offers and that partner is not the lender itself.
 */
export function subLenderOf(plan: PaymentPlan, cfg: LenderConfig | undefined, offeredProviderId?: string): SubLender | undefined {
  const id = plan.subLenderId || offeredProviderId;
  if (!id || !cfg?.subLenders?.length || id === cfg.providerId) return undefined;
  return cfg.subLenders.find((s) => s.providerId === id);
}

/** PlanGroup is the plans of one lender, or of one of its partner lenders. */
export interface PlanGroup {
  id: string;
  providerKey: string;
  subLender?: SubLender;
  plans: PaymentPlan[];
}

/**
 * groupPlans puts each lender's plans together, a partner lender's apart
 * from its lender's own, in the order the plans came (the offers' order).
 */
export function groupPlans(
  plans: PaymentPlan[],
  lenders: Record<string, LenderConfig>,
  offered: Record<string, string | undefined> = {},
): PlanGroup[] {
  const groups: PlanGroup[] = [];
  for (const p of plans) {
    const sub = subLenderOf(p, lenders[p.providerKey], offered[p.providerKey]);
    const id = `${p.providerKey}|${sub?.providerId ?? ''}`;
    let g = groups.find((x) => x.id === id);
    if (!g) {
      g = { id, providerKey: p.providerKey, subLender: sub, plans: [] };
      groups.push(g);
    }
    g.plans.push(p);
  }
  return groups;
}

/**
 * estimateFloorCents is the least the estimator prices plans for
 * (docs/behaviour.md, "Plans and offers"): the lowest minimum of the plans
 * offered — below it no plan shown is for the amount — and never below the
 * lender's calculator minimum (minPaymentCalculatorCents) or one dollar.
 */
export function estimateFloorCents(plans: PaymentPlan[], calculatorMinCents = 0): number {
  const lowest = plans.length ? Math.min(...plans.map((p) => p.minAmountCents ?? 0)) : 0;
  return Math.max(100, calculatorMinCents, lowest);
}
