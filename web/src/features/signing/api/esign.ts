import { api, isStillWorking, lenderPath } from '@/lib/api/client';
import type { Document, ESignRequest, ProviderApplicationState, LenderConfig } from '@/lib/api/types';
import { withProgress } from '@/flow/progress';
import { isPositive } from '@/lib/decision';
import { once } from '@/lib/once';
import { lenderRoute } from '@/lib/paths';
import { SUBMIT_MINIMUM_MS } from '@/lib/timeout';
import { flow, type LenderResponses } from '@/stores/flow';
import { timerControl } from '@/stores/ui';
import { signingProgress } from '../messages';
import type { SignatureValue } from '../signature';

/** The consents of the signing screen, each naming the document shown there (docs/behaviour.md, "Signing"). */
export type SigningConsents = Pick<ESignRequest, 'consent' | 'agreementConsent' | 'hardPullConsent'>;

/**
 * needsHardPull: the offer came from a soft pull (prequalify or prescreen),
 * so it becomes an account only if the patient authorises the hard pull at
 * signing. An offer from a full application was authorised before applying;
 * an account the patient already has opens nothing, so there is no new
 * inquiry to authorise (the server refuses one).
 */
export function needsHardPull(r: LenderResponses | undefined): boolean {
  if (usesExistingAccount(r)) return false;
  return !(r?.apply && isPositive(r.apply.responseCode));
}

/** usesExistingAccount: the lender's offer is on an account the patient already has ("Use my existing account"). */
export function usesExistingAccount(r: LenderResponses | undefined): boolean {
  return Boolean((r?.apply ?? r?.preAuth)?.existingAccount);
}

/** agreementAgreedBefore: the lender's steps before signing include its agreement on a screen of its own (catalogue stepsBeforeSigning). */
export function agreementAgreedBefore(p: LenderConfig | undefined): boolean {
  return Boolean(p?.stepsBeforeSigning?.includes('agreement'));
}

/** loadAgreement gets the lender's agreement for the accepted offer (POST agreement), kept with the documents shown. */
export async function loadAgreement(providerKey: string): Promise<Document> {
  const key = `${providerKey}:agreement`;
  const have = flow.get().documents[key];
  if (have) return have;
  return once(`doc:${key}`, async () => {
    const doc = await api.post<Document>(lenderPath(providerKey, 'agreement'), undefined, { noErrorHandling: true });
    flow.set({ documents: { ...flow.get().documents, [key]: doc } });
    return doc;
  });
}

/** forgetSigningDocuments drops the signing screen's documents, so it fetches and shows the current ones. */
export function forgetSigningDocuments(providerKey: string): void {
  const documents = { ...flow.get().documents };
  for (const kind of ['esign', 'agreement', 'application']) delete documents[`${providerKey}:${kind}`];
  flow.set({ documents });
}

/** completeApplication asks the lender to complete the signed application, and answers the completion screen. */
export async function completeApplication(k: string): Promise<string> {
  await withProgress(signingProgress.complete(), () => api.post(lenderPath(k, 'application/complete'), {}, { lenderStep: true }));
  return lenderRoute(k, 'complete');
}

/**
 * esignAndComplete sends the signing screen's consents and the signature,
 * then completes the application. Each is a lender step: still in flight,
 * it is asked again (same body) while its waiting words stay; run again
 * after that, a step already done is not repeated. The e-sign's errors are
 * the caller's to show (a consent_required means a document changed: the
 * screen shows the current ones).
 */
export async function esignAndComplete(signature: SignatureValue, consents: SigningConsents): Promise<string> {
  const k = flow.get().providerKey!;
  timerControl.setMinimum(SUBMIT_MINIMUM_MS);
  try {
    if (!flow.get().responses[k]?.signed) {
      const body: ESignRequest = { ...consents, signaturePng: signature.png };
      // A typed signature says so, with the name the server checks is the applicant's.
      if (signature.method === 'typed') Object.assign(body, { signatureMethod: 'typed', typedName: signature.typedName });
      const pa = await withProgress(signingProgress.esign(), () =>
        api.post<ProviderApplicationState>(lenderPath(k, 'application/esign'), body, { lenderStep: true, noErrorHandling: true }),
      );
      flow.response(k, { signed: true, openSteps: pa?.openSteps ?? [] });
    }
    // A lender with a step of its own between signing and completing (Fortiva's cardholder agreement) shows it first.
    const open = flow.get().responses[k]?.openSteps?.[0];
    if (open) return lenderRoute(k, open);
    return await completeApplication(k);
  } catch (e) {
    if (isStillWorking(e)) e.providerKey = k;
    throw e;
  } finally {
    timerControl.setMinimum(0);
  }
}
