import { api, ApiError, isStillWorking, providerPath } from '@/lib/api/client';
import type { PaymentPlan, ProviderApplicationState } from '@/lib/api/types';
import { withProgress } from '@/flow/progress';
import { providerRoute } from '@/lib/paths';
import { flow, providerName } from '@/stores/flow';
import { offerProgress } from '../messages';

const enc = encodeURIComponent;

/**
 * acceptOffer confirms the plan and accepts the offer (docs/behaviour.md,
 * "Plans and offers"). Run again after the lender was still working on it,
 * the confirmation already made is not repeated: only acceptOffer is asked
 * again, and the server answers it with the first answer.
 */
export async function acceptOffer(plan: PaymentPlan): Promise<string> {
  const k = plan.providerKey;
  return withProgress(offerProgress.acceptOffer(providerName(k)), async () => {
    let pa: ProviderApplicationState | undefined;
    try {
      if (flow.get().responses[k]?.confirmedPlanCode !== plan.providerPlanCode) {
        await api.post(providerPath(k, `payment/plans/${enc(plan.providerPlanCode)}/confirm-selection`), undefined, { noErrorHandling: true });
        flow.response(k, { confirmedPlanCode: plan.providerPlanCode });
      }
      pa = await api.post<ProviderApplicationState>(
        providerPath(k, 'acceptOffer'),
        { providerPlanCode: plan.providerPlanCode },
        { noErrorHandling: true, lenderStep: true },
      );
    } catch (e) {
      if (isStillWorking(e)) {
        e.providerKey = k;
        throw e;
      }
      if (e instanceof ApiError && (e.code === 'session_invalid' || e.status === 401)) return '/session/invalid';
      flow.response(k, { errors: { ...flow.get().responses[k]?.errors, accept_offer_error: e instanceof ApiError ? e.code : 'failed' } });
      return providerRoute(k, 'acceptOfferError');
    }
    // The lender's own steps still open before signing: offerReviewNext goes to the first.
    flow.response(k, { accepted: true, openSteps: pa?.openSteps ?? [] });
    const mode = flow.get().applyMode;
    return providerRoute(k, `modes/${mode}/offerReviewNext`);
  });
}

/** acceptSelectedOffer is the acceptOfferSubmit route: it accepts the plan chosen, or goes back to the plans without one. */
export function acceptSelectedOffer(): Promise<string> {
  const s = flow.get();
  if (!s.selectedPaymentPlan) return Promise.resolve(providerRoute(s.providerKey!, 'paymentPlans'));
  return acceptOffer(s.selectedPaymentPlan);
}
