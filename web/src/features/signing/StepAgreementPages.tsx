import { ConsentStepScreen } from '@/components/ConsentStepScreen';
import { loadStepDocument, sendLenderStep } from '@/lib/lenderSteps';
import { useFlow, useProviderName } from '@/stores/flow';
import { completeApplication, loadAgreement } from './api/esign';

/*
 * The lender documents agreed on screens of their own (docs/behaviour.md,
 * "Signing"): a lender's agreement before signing (AFF's loan agreement,
 * Snap's lease agreement), which the signing screen then does not show
 * again; and a card's cardholder agreement after signing, whose "Open my
 * account" completes the application.
 */

export function AgreementPage() {
  const providerKey = useFlow((s) => s.providerKey) ?? '';
  const lender = useProviderName(providerKey);
  const lease = useFlow((s) => s.providers[providerKey]?.kind === 'lease_to_own');
  const what = lease ? 'lease agreement' : 'loan agreement';
  return (
    <ConsentStepScreen
      title={`Your ${what}`}
      lead={`Please read your ${what} with ${lender}. It says what you pay, when, and what happens if a payment is late. You sign it on the next screen.`}
      load={() => loadAgreement(providerKey)}
      deps={[providerKey]}
      boxLabel={`I have read the ${lender} ${what} and I agree to its terms.`}
      button="Continue"
      send={(consent) => sendLenderStep(providerKey, 'application/agreement', { consent }, `Letting ${lender} know…`)}
    />
  );
}

export function CompleteAgreementPage() {
  const providerKey = useFlow((s) => s.providerKey) ?? '';
  const lender = useProviderName(providerKey);
  return (
    <ConsentStepScreen
      title="Your cardholder agreement"
      lead={`You have signed. One last thing before ${lender} opens your account: the cardholder agreement, which covers how your card works from now on.`}
      load={() => loadStepDocument(providerKey, 'cardholder_agreement')}
      deps={[providerKey]}
      boxLabel={`I have read the ${lender} cardholder agreement and I agree to it.`}
      button="Open my account"
      send={async (consent) => {
        const next = await sendLenderStep(providerKey, 'application/cardholder-agreement', { consent }, `Letting ${lender} know…`, 'complete');
        // Nothing else open: the lender opens the account now.
        return next.endsWith('/complete') ? completeApplication(providerKey) : next;
      }}
    />
  );
}
