import { api, isStillWorking, providerPath } from '@/lib/api/client';
import { withProgress } from '@/flow/progress';
import { providerRoute } from '@/lib/paths';
import { SUBMIT_MINIMUM_MS } from '@/lib/timeout';
import { flow } from '@/stores/flow';
import { timerControl } from '@/stores/ui';
import { signingProgress } from '../messages';

/**
 * esignAndComplete sends the e-sign consent and signature, then completes the
 * application. Each is a lender step: still in flight, it is asked again
 * (same body) while its waiting words stay; run again after that, a step
 * already done is not repeated.
 */
export async function esignAndComplete(signaturePng: string): Promise<string> {
  const k = flow.get().providerKey!;
  timerControl.setMinimum(SUBMIT_MINIMUM_MS);
  try {
    const consent = flow.get().consents[`${k}:esign`];
    if (!consent) throw new Error('no e-sign consent');
    if (!flow.get().responses[k]?.signed) {
      await withProgress(signingProgress.esign, () =>
        api.post(providerPath(k, 'application/esign'), { consent, signaturePng }, { lenderStep: true }),
      );
      flow.response(k, { signed: true });
    }
    await withProgress(signingProgress.complete, () => api.post(providerPath(k, 'application/complete'), {}, { lenderStep: true }));
    return providerRoute(k, 'complete');
  } catch (e) {
    if (isStillWorking(e)) e.providerKey = k;
    throw e;
  } finally {
    timerControl.setMinimum(0);
  }
}
