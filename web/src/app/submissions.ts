import { applicantData } from '@/features/application/api/body';
import { acceptSelectedOffer } from '@/features/offers/api/accept';
import { fetchPlans } from '@/features/offers/api/plans';
import { submitPatch } from '@/features/results/api/pending';
import { submitDecision, type SubmitDeps } from '@/features/results/api/submit';
import { lenderRoute } from '@/lib/paths';
import { flow } from '@/stores/flow';

/**
 * The transient submit routes (docs/behaviour.md, "Routes"), wired here
 * because a submit draws on several features: the application's body, the
 * results' decision and cascade, the offers' plans and accept. Features never
 * import each other; the app composes them. routes.tsx loads this module
 * with the submit screen, so it stays out of the first route's code.
 */

export const submitDeps: SubmitDeps = { ...applicantData, fetchPlans };

/** The operation each submit route runs; each answers the path to show next. */
export const submissions: Record<string, () => Promise<string>> = {
  prequalifySubmit: () => {
    const mode = flow.get().applyMode;
    return submitDecision(mode === 'full' ? 'prequalify' : mode, submitDeps);
  },
  fullApplicationSubmit: () => submitDecision('full', submitDeps),
  acceptOfferSubmit: acceptSelectedOffer,
  patchSubmit: submitPatch,
};

/**
 * runSubmission runs the operation of a submit route (the last part of its
 * path). Signing and completing need the signature: those routes go back to
 * the terms screen, which runs them.
 */
export function runSubmission(op: string): Promise<string> {
  const run = submissions[op];
  return run ? run() : Promise.resolve(lenderRoute(flow.get().providerKey!, 'terms'));
}
