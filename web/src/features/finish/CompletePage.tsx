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
  // The catalogue's fundingName is what pays the office (a card account, a loan, a lease).
  const funding = useFlow((s) => (s.providerKey ? s.providers[s.providerKey]?.fundingName : undefined));
  const office = useFlow((s) => s.location?.name);
  const atHome = useFlow((s) => s.experienceType === 'at_home');
  const [busy, setBusy] = useState(false);
  const finish = async () => {
    setBusy(true);
    navigate(await finishFlow('completed'), { replace: true });
  };
  return (
    <div className="card">
      <ResultIcon kind="ok" />
      <Page title="You’re all set" lead={`Your financing with ${lender} is complete.`}>
        {funding ? (
          <p>
            Your {funding} pays {office || 'the office'} for your treatment.
          </p>
        ) : null}
        {plan ? (
          <p>
            Your plan: <strong>{formatCents(plan.monthlyAmountCents)} a month</strong> for {plan.durationMonths} months.
          </p>
        ) : null}
        <p>
          {lender} will send your account details by mail or email.{' '}
          {atHome ? 'You can close this page once you press Finish.' : 'Please hand the device back to the office.'}
        </p>
        <div className="actions">
          <Button onClick={finish} disabled={busy}>
            Finish
          </Button>
        </div>
      </Page>
    </div>
  );
}
