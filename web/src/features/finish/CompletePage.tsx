import { useState } from 'react';
import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { ResultIcon } from '@/components/Icons';
import { finishFlow } from '@/flow/finish';
import { useFlowNavigate } from '@/flow/navigation';
import { formatCents } from '@/lib/money';
import { useFlow, useProviderName } from '@/stores/flow';

/** CompletePage: the application is signed and complete. */
export function CompletePage() {
  const navigate = useFlowNavigate();
  const providerKey = useFlow((s) => s.providerKey);
  const plan = useFlow((s) => s.selectedPaymentPlan);
  const lender = useProviderName(providerKey);
  const [busy, setBusy] = useState(false);
  const finish = async () => {
    setBusy(true);
    navigate(await finishFlow('completed'), { replace: true });
  };
  return (
    <div className="card">
      <ResultIcon kind="ok" />
      <Page title="You’re all set" lead={`Your financing with ${lender} is complete.`}>
        {plan ? (
          <p>
            Your plan: <strong>{formatCents(plan.monthlyAmountCents)} a month</strong> for {plan.durationMonths} months.
          </p>
        ) : null}
        <p>{lender} will send your account details by mail or email. Please hand the device back to the office.</p>
        <div className="actions">
          <Button onClick={finish} disabled={busy}>
            Finish
          </Button>
        </div>
      </Page>
    </div>
  );
}
