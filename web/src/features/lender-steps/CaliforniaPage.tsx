import { ConsentStepScreen } from '@/components/ConsentStepScreen';
import { loadStepDocument, sendLenderStep } from '@/lib/lenderSteps';
import { useT } from '@/lib/i18n';
import { useFlow, useLenderName } from '@/stores/flow';

/*
 * The notice for patients of an office in California (docs/behaviour.md,
 * "What each lender asks for"): this is credit for dental treatment, the
 * office may not charge it for treatment not given yet, and a refund for
 * cancelled treatment is made within 15 business days. The patient
 * acknowledges it; the server records the acknowledgement as a consent.
 */
export function CaliforniaPage() {
  const t = useT();
  const providerKey = useFlow((s) => s.providerKey) ?? '';
  const lender = useLenderName(providerKey);
  return (
    <ConsentStepScreen
      title={t('lenderSteps.california.title')}
      lead={t('lenderSteps.california.lead')}
      load={() => loadStepDocument(providerKey, 'california_notice')}
      deps={[providerKey]}
      boxLabel={t('lenderSteps.california.box', { lender })}
      button={t('lenderSteps.continue')}
      send={(consent) => sendLenderStep(providerKey, 'application/california-notice', { consent }, t('lenderSteps.california.progress', { lender }))}
    />
  );
}
