import { api, lenderPath } from '@/lib/api/client';
import type { PaymentPlan } from '@/lib/api/types';
import { withProgress } from '@/flow/progress';
import { flow } from '@/stores/flow';
import { offerProgress } from '../messages';

const enc = encodeURIComponent;

/** fetchPlans asks for the payment plans of one lender for an amount. */
export async function fetchPlans(providerKey: string, amountCents: number, opts: { handled?: boolean } = {}): Promise<PaymentPlan[]> {
  const res = await api.post<{ paymentPlans: PaymentPlan[] }>(
    lenderPath(providerKey, 'payment/plans'),
    // The treatment amount the patient was shown: the server answers
    // amount_changed when the office has changed it since.
    { amountCents, ...(flow.get().purchaseAmountCents ? { purchaseAmountCents: flow.get().purchaseAmountCents } : {}) },
    { noErrorHandling: opts.handled === false },
  );
  const plans = (res?.paymentPlans ?? []).map((p) => ({ ...p, providerKey: p.providerKey || providerKey }));
  flow.response(providerKey, { paymentPlans: plans, paymentPlansAmountCents: amountCents });
  return plans;
}

/** selectPlan records the patient's choice with the lender. */
export async function selectPlan(plan: PaymentPlan): Promise<void> {
  await withProgress(offerProgress.select(), () => api.post(lenderPath(plan.providerKey, `payment/plans/${enc(plan.providerPlanCode)}/select`), {}));
  choosePlan(plan);
  flow.response(plan.providerKey, { selectedPlanCode: plan.providerPlanCode });
}

/**
 * choosePlan keeps the patient's choice in the browser only: for a lender
 * that is told on the review screen (selectPaymentPlanOnReviewScreen),
 * selectPlan follows there. A new choice has to be confirmed again before
 * the offer is accepted.
 */
export function choosePlan(plan: PaymentPlan): void {
  flow.response(plan.providerKey, { confirmedPlanCode: undefined });
  flow.set({ selectedPaymentPlan: plan, providerKey: plan.providerKey });
}
