import { api } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';
import { t } from '@/lib/i18n';
import { formatCents } from '@/lib/money';
import { flow } from '@/stores/flow';

type Amounts = components['schemas']['ApplicationAmounts'];

/**
 * refreshAmounts reads the treatment amount again after the office changed
 * it (docs/behaviour.md, "Changing the amount"): every lender's plans and
 * choice are set aside, as the server set them aside, and the plans screen
 * says why it asks again.
 */
export async function refreshAmounts(): Promise<void> {
  const a = await api.get<Amounts>('/application/amounts');
  if (!a) return;
  for (const key of Object.keys(flow.get().responses)) {
    flow.response(key, {
      paymentPlans: undefined,
      paymentPlansAmountCents: undefined,
      selectedPlanCode: undefined,
      confirmedPlanCode: undefined,
      accepted: undefined,
      signed: undefined,
      openSteps: undefined,
    });
  }
  flow.set({
    purchaseAmountCents: a.purchaseAmountCents,
    insuranceBenefitsCents: a.insuranceBenefitsCents,
    selectedPaymentPlan: null,
    notice: t('offers.plans.amountChanged', { amount: formatCents(a.purchaseAmountCents) }),
  });
}
