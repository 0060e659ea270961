import { api, ApiError } from '@/lib/api/client';
import type { FinishOutcome } from '@/lib/api/types';
import { reportClientError } from '@/lib/clientLog';
import { flow } from '@/stores/flow';

/**
 * finishFlow ends the session with an outcome (docs/behaviour.md, "Finishing"): calls the finish
 * endpoint (errors only logged), clears all data and answers /finish/{outcome}.
 */
export async function finishFlow(outcome: FinishOutcome | 'cancel'): Promise<string> {
  const endpoint = outcome === 'cancel' ? 'canceled' : outcome;
  if (flow.get().session) {
    try {
      await api.post(`/flow/finish/${endpoint}`, undefined, { noErrorHandling: true });
    } catch (e) {
      console.warn('finish failed', e instanceof ApiError ? e.code : 'error');
      // Sent while the session is still live (it is cleared just below).
      reportClientError('finish.failed', 'warn');
    }
  }
  flow.clear();
  const shown = outcome === 'canceled' ? 'cancel' : outcome;
  return `/finish/${shown}`;
}
