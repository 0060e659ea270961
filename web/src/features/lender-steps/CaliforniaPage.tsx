import { ConsentStepScreen } from '@/components/ConsentStepScreen';
import { loadStepDocument, sendLenderStep } from '@/lib/lenderSteps';
import { useFlow, useProviderName } from '@/stores/flow';

/*
 * The notice for patients of an office in California (docs/behaviour.md,
 * "What each lender asks for"): this is credit for dental treatment, the
 * office may not charge it for treatment not given yet, and a refund for
 * cancelled treatment is made within 15 business days. The patient
 * acknowledges it; the server records the acknowledgement as a consent.
 */
export function CaliforniaPage() {
  const providerKey = useFlow((s) => s.providerKey) ?? '';
  const lender = useProviderName(providerKey);
  return (
    <ConsentStepScreen
      title="For patients in California"
      lead="California asks us to make sure you know these three things before you sign."
      load={() => loadStepDocument(providerKey, 'california_notice')}
      deps={[providerKey]}
      boxLabel={`I understand that ${lender} is credit for my dental treatment, that the office may not charge it for treatment I have not received, and that a refund for cancelled treatment is made within 15 business days.`}
      button="Continue"
      send={(consent) => sendLenderStep(providerKey, 'application/california-notice', { consent }, `Letting ${lender} know…`)}
    />
  );
}
