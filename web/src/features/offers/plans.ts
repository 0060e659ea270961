import type { PaymentPlan, ProviderConfig } from '@/lib/api/types';
import { t } from '@/lib/i18n';

type SubLender = NonNullable<ProviderConfig['subLenders']>[number];

/** The suggested plan is the one with the highest monthly amount (docs/behaviour.md, "Plans and offers"). */
export function suggestedPlan(plans: PaymentPlan[]): PaymentPlan | undefined {
  return plans.reduce<PaymentPlan | undefined>((best, p) => (!best || p.monthlyAmountCents > best.monthlyAmountCents ? p : best), undefined);
}

export const isFixedRate = (p: PaymentPlan) => p.typeId === 'fixed_rate';
export const isDeferredInterest = (p: PaymentPlan) => p.typeId === 'deferred_interest';

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

/** Learn-how multiplier by duration (docs/behaviour.md, "Plans and offers"). */
export function learnHowMultiplier(months: number): number | undefined {
  return ({ 24: 4.9876, 36: 3.6605, 48: 3.0377, 60: 2.6997 } as Record<number, number>)[months];
}

/** Suggested deferred-interest payment: the greater of amount / months or $30 (in cents). */
export function suggestedDeferredPaymentCents(amountCents: number, months: number): number {
  if (months <= 0) return amountCents;
  return Math.max(Math.ceil(amountCents / months), 3000);
}

/** Requested credit limit for the down-payment table (docs/behaviour.md, "Plans and offers"). */
export function requestedCreditLimitCents(purchaseCents: number, insuranceCents = 0): number {
  return Math.min(200000, Math.floor((purchaseCents + insuranceCents) / 2));
}

export function remainingObligationCents(purchaseCents: number, limitCents: number): number {
  return Math.max(0, purchaseCents - limitCents);
}

/** A lease-to-own plan is not credit: it is shown by its cost of ownership, never by an APR (docs/behaviour.md, "Plans and offers"). */
export const isLease = (p: PaymentPlan) => p.productType === 'lease';

/** Days within which a lease's early purchase option lets the patient buy for the cash price (Snap's 101-day option). */
export const EARLY_PURCHASE_DAYS = 101;

/** The lease plan that is the early purchase option: its payments add up to the cash price. */
export const isEarlyPurchaseOption = (p: PaymentPlan) => isLease(p) && p.totalCostCents - p.downPaymentCents <= p.amountFinancedCents;

/** What the plan finances: the treatment less the down payment, as the lender stated it. */
export const amountFinancedCents = (p: PaymentPlan) => p.amountFinancedCents;

/** Paid today, before the first monthly payment. */
export const dueTodayCents = (p: PaymentPlan) => p.downPaymentCents;

/** The down-payment table of a plan with a down payment (docs/behaviour.md, "Plans and offers"), its labels in the app's language. */
export function downPaymentRows(treatmentCents: number, insuranceCents = 0): { label: string; cents: number }[] {
  const limit = requestedCreditLimitCents(treatmentCents, insuranceCents);
  return [
    { label: t('offers.downPaymentTable.treatment'), cents: treatmentCents },
    { label: t('offers.downPaymentTable.limit'), cents: limit },
    { label: t('offers.downPaymentTable.remaining'), cents: remainingObligationCents(treatmentCents, limit) },
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
export function planTypesShown(cfg: ProviderConfig | undefined): string[] | undefined {
  const types = cfg?.paymentPlanFilterOverrides?.[productFamily(cfg.kind)];
  return types?.length ? types : undefined;
}

/** filterByType keeps the plans of the types a lender's override shows (every plan of a lender without one). */
export function filterByType(plans: PaymentPlan[], providers: Record<string, ProviderConfig>): PaymentPlan[] {
  return plans.filter((p) => {
    const types = planTypesShown(providers[p.providerKey]);
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
export function subLenderOf(plan: PaymentPlan, cfg: ProviderConfig | undefined, offeredProviderId?: string): SubLender | undefined {
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
  providers: Record<string, ProviderConfig>,
  offered: Record<string, string | undefined> = {},
): PlanGroup[] {
  const groups: PlanGroup[] = [];
  for (const p of plans) {
    const sub = subLenderOf(p, providers[p.providerKey], offered[p.providerKey]);
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

/** The finance charge of a credit plan: what it costs beyond the amount financed (never below zero). */
export const financeChargeCents = (p: PaymentPlan) => Math.max(0, p.totalCostCents - p.downPaymentCents - p.amountFinancedCents);
