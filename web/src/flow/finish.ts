import { api, ApiError } from '@/lib/api/client';
import type { FinishOutcome, StartFlowResponse } from '@/lib/api/types';
import { reportClientError } from '@/lib/clientLog';
import { flow } from '@/stores/flow';
import { enterSession } from './start';
import { forgetLanguageChoice } from '@/lib/i18n';

/** How long a delayed finish leaves the last screen before clearing it (docs/behaviour.md, "Finishing"). */
export const FINISH_CLEAR_DELAY_MS = 60_000;

let delayedClear: ReturnType<typeof setTimeout> | null = null;
/** The session a delayed finish already ended, and how, so it is not finished twice. */
let finished: { sessionId: string; outcome: FinishOutcome } | null = null;
/**
 * The finish call of a session, while it runs and after: pressing Finish
 * while the completion screen's own finish is still on its way must not
 * finish the session a second time (the server would answer 401, and the
 * failure's report too).
 */
let told: { sessionId: string; result: Promise<string | undefined> } | null = null;

/**
 * finishFlow ends the session with an outcome (docs/behaviour.md, "Finishing"): calls the finish
 * endpoint (errors only logged), clears all data and answers /finish/{outcome}.
 */
export async function finishFlow(outcome: FinishOutcome | 'cancel'): Promise<string> {
  // A session a delayed finish already ended keeps that outcome: a cancel in its last minute cannot undo a completed application.
  const earlier = finished && flow.get().session?.webSessionId === finished.sessionId ? finished.outcome : null;
  const recorded = await tellServer(outcome);
  clearNow();
  const shown = earlier ?? (outcome === 'canceled' ? 'cancel' : outcome);
  return `/finish/${shown === 'completed' && recorded && NO_FINANCING.has(recorded) ? 'closed' : shown}`;
}

/**
 * The outcomes the server records when "completed" was asked but no lender
 * completed an application (a decline, no offer, an expired offer, an offer
 * not taken): the patient's finish screen then says the application is
 * closed, never that it is complete (docs/behaviour.md, "Finishing").
 */
const NO_FINANCING = new Set<string>(['declined', 'no_offer', 'offer_expired', 'no_financing']);

/**
 * finishLater is the finish with the delay flag: the application is
 * finished at once, the screen stays as it is, and everything is cleared
 * FINISH_CLEAR_DELAY_MS later without navigating, unless a finishFlow
 * (the patient pressing Finish) comes first.
 */
export async function finishLater(outcome: FinishOutcome): Promise<void> {
  const session = flow.get().session;
  if (!session) return;
  await tellServer(outcome);
  // Finish may have been pressed meanwhile and cleared the session: then
  // nothing is left to clear later (and a session started since is not this one).
  if (flow.get().session?.webSessionId !== session.webSessionId) return;
  finished = { sessionId: session.webSessionId, outcome };
  delayedClear = setTimeout(clearNow, FINISH_CLEAR_DELAY_MS);
}

/** tellServer calls the finish endpoint once per session and answers the outcome it recorded; errors there are only logged. */
async function tellServer(outcome: FinishOutcome | 'cancel'): Promise<string | undefined> {
  if (delayedClear) clearTimeout(delayedClear);
  delayedClear = null;
  const session = flow.get().session;
  if (!session) return;
  if (told?.sessionId === session.webSessionId) return told.result;
  if (session.webSessionId === finished?.sessionId) return;
  told = { sessionId: session.webSessionId, result: sendFinish(outcome) };
  return told.result;
}

/** sendFinish calls the finish endpoint and answers the outcome the server recorded. */
async function sendFinish(outcome: FinishOutcome | 'cancel'): Promise<string | undefined> {
  const endpoint = outcome === 'cancel' ? 'canceled' : outcome;
  try {
    const res = await api.post<{ outcome?: string }>(`/flow/finish/${endpoint}`, undefined, { noErrorHandling: true });
    return res?.outcome;
  } catch (e) {
    console.warn('finish failed', e instanceof ApiError ? e.code : 'error');
    // Sent while the session is still live (it is cleared just after).
    reportClientError('finish.failed', 'warn');
  }
}

function clearNow(): void {
  delayedClear = null;
  finished = null;
  told = null;
  flow.clear();
  // The screen keeps its language; the next patient on this device starts from the office's or browser's.
  forgetLanguageChoice();
}

/**
 * startAgain begins a new application at the office of the session that
 * just finished, in the same experience (in the office or at home), and
 * answers where to go. The server refuses (resource_not_found) once the
 * finished session is too old; the caller then asks for a new link.
 */
export async function startAgain(): Promise<string> {
  const s = flow.get();
  if (!s.previousSessionId) throw new ApiError(404, { code: 'resource_not_found', message: 'Nothing to start again from.' });
  const res = await api.post<StartFlowResponse>('/flow/start/again', { previousSessionId: s.previousSessionId }, { noErrorHandling: true });
  return enterSession(res);
}
