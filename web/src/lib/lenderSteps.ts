import { api, lenderPath } from '@/lib/api/client';
import type { Document, ProviderApplicationState } from '@/lib/api/types';
import { withProgress } from '@/flow/progress';
import { lenderRoute } from '@/lib/paths';
import { flow } from '@/stores/flow';

/*
 * A lender's own steps between accepting and signing, and between signing
 * and completing (docs/behaviour.md, "Signing"). The server decides which
 * are still open and says so in every answer about the lender application
 * (openSteps); the browser only follows that list: each step's screen, once
 * done, goes to the next open one, or to `then` (signing, or completing).
 * Each step's name is its route.
 */

/** stepsAnswered keeps the open steps of a lender application's answer and answers the route of the first (or `then`). */
export function stepsAnswered(providerKey: string, pa: Pick<ProviderApplicationState, 'openSteps'> | null | undefined, then = 'terms'): string {
  const openSteps = pa?.openSteps ?? [];
  flow.response(providerKey, { openSteps });
  return lenderRoute(providerKey, openSteps[0] ?? then);
}

/** nextOpenStep asks the server where the lender application stands and answers the route of its first open step (or `then`). */
export async function nextOpenStep(providerKey: string, then = 'terms'): Promise<string> {
  const pa = await api.get<ProviderApplicationState>(lenderPath(providerKey, 'application'), { noErrorHandling: true });
  return stepsAnswered(providerKey, pa, then);
}

/**
 * afterStep: a step's screen is done with `pa`, the answer of its lender step
 * (an answer without openSteps has none open), or with nothing sent (a choice
 * that needs no call): the route of the next open step. If the server cannot
 * be asked, signing is next; it refuses while a step is open, in words.
 */
export async function afterStep(providerKey: string, pa?: ProviderApplicationState | null, then = 'terms'): Promise<string> {
  if (pa) return stepsAnswered(providerKey, pa, then);
  return nextOpenStep(providerKey, then).catch(() => lenderRoute(providerKey, then));
}

/** loadStepDocument gets one of the lender steps' own documents (GET disclosures?kind=california_notice or cardholder_agreement). */
export function loadStepDocument(providerKey: string, kind: 'california_notice' | 'cardholder_agreement'): Promise<Document> {
  return api.get<Document>(lenderPath(providerKey, 'disclosures'), { query: { kind }, noErrorHandling: true });
}

/** sendStep posts a lender step's body with the waiting words and answers the route of the next open step (or `then`). */
export async function sendLenderStep(providerKey: string, path: string, body: unknown, progress: string, then = 'terms'): Promise<string> {
  const pa = await withProgress(progress, () =>
    api.post<ProviderApplicationState>(lenderPath(providerKey, path), body, { lenderStep: true, noErrorHandling: true }),
  );
  return stepsAnswered(providerKey, pa, then);
}
