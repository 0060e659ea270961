import { api, ApiError, isStillWorking, lenderPath } from '@/lib/api/client';
import type { PaymentPlan, ProviderApplicationState } from '@/lib/api/types';
import { withProgress } from '@/flow/progress';
import { lenderRoute } from '@/lib/paths';
import { flow, lenderName } from '@/stores/flow';
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
  return withProgress(offerProgress.acceptOffer(lenderName(k)), async () => {
    let pa: ProviderApplicationState | undefined;
    try {
      if (flow.get().responses[k]?.confirmedPlanCode !== plan.providerPlanCode) {
        await api.post(lenderPath(k, `payment/plans/${enc(plan.providerPlanCode)}/confirm-selection`), undefined, { noErrorHandling: true });
        flow.response(k, { confirmedPlanCode: plan.providerPlanCode });
      }
      pa = await api.post<ProviderApplicationState>(
        lenderPath(k, 'acceptOffer'),
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
      return lenderRoute(k, 'acceptOfferError');
    }
    // The lender's own steps still open before signing: offerReviewNext goes to the first.
    flow.response(k, { accepted: true, openSteps: pa?.openSteps ?? [] });
    const mode = flow.get().applyMode;
    return lenderRoute(k, `modes/${mode}/offerReviewNext`);
  });
}

/** acceptSelectedOffer is the acceptOfferSubmit route: it accepts the plan chosen, or goes back to the plans without one. */
export function acceptSelectedOffer(): Promise<string> {
  const s = flow.get();
  if (!s.selectedPaymentPlan) return Promise.resolve(lenderRoute(s.providerKey!, 'paymentPlans'));
  return acceptOffer(s.selectedPaymentPlan);
}
