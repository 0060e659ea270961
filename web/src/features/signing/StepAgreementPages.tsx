import { ConsentStepScreen } from '@/components/ConsentStepScreen';
import { useT } from '@/lib/i18n';
import { loadStepDocument, sendLenderStep } from '@/lib/lenderSteps';
import { useFlow, useLenderName } from '@/stores/flow';
import { completeApplication, loadAgreement } from './api/esign';

/*
 * The lender documents agreed on screens of their own (docs/behaviour.md,
 * "Signing"): a lender's agreement before signing (AFF's loan agreement,
 * Snap's lease agreement), which the signing screen then does not show
 * again; and a card's cardholder agreement after signing, whose "Open my
 * account" completes the application.
 */

export function AgreementPage() {
  const t = useT();
  const providerKey = useFlow((s) => s.providerKey) ?? '';
  const lender = useLenderName(providerKey);
  const lease = useFlow((s) => s.lenders[providerKey]?.kind === 'lease_to_own');
  return (
    <ConsentStepScreen
      title={lease ? t('signing.agreement.leaseTitle') : t('signing.agreement.loanTitle')}
      lead={lease ? t('signing.agreement.leaseLead', { lender }) : t('signing.agreement.loanLead', { lender })}
      load={() => loadAgreement(providerKey)}
      deps={[providerKey]}
      boxLabel={lease ? t('signing.agreement.leaseBox', { lender }) : t('signing.agreement.loanBox', { lender })}
      button={t('signing.continue')}
      send={(consent) => sendLenderStep(providerKey, 'application/agreement', { consent }, t('signing.progress.letKnow', { lender }))}
    />
  );
}

export function CompleteAgreementPage() {
  const t = useT();
  const providerKey = useFlow((s) => s.providerKey) ?? '';
  const lender = useLenderName(providerKey);
  return (
    <ConsentStepScreen
      title={t('signing.agreement.cardholderTitle')}
      lead={t('signing.agreement.cardholderLead', { lender })}
      load={() => loadStepDocument(providerKey, 'cardholder_agreement')}
      deps={[providerKey]}
      boxLabel={t('signing.agreement.cardholderBox', { lender })}
      button={t('signing.agreement.openAccount')}
      send={async (consent) => {
        const next = await sendLenderStep(
          providerKey,
          'application/cardholder-agreement',
          { consent },
          t('signing.progress.letKnow', { lender }),
          'complete',
        );
        // Nothing else open: the lender opens the account now.
        return next.endsWith('/complete') ? completeApplication(providerKey) : next;
      }}
    />
  );
}
