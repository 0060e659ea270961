import { useEffect, useState } from 'react';
import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { Modal } from '@/components/Modal';
import { AgreeBox, useAgree } from '@/components/consent/ConsentDocuments';
import { useFlowNavigate } from '@/flow/navigation';
import { withProgress } from '@/flow/progress';
import { api, ApiError, providerPath } from '@/lib/api/client';
import type { ProviderApplicationState, WaterfallStep } from '@/lib/api/types';
import { loadWaterfall } from '@/lib/consent/documents';
import { afterStep } from '@/lib/lenderSteps';
import { formatCents } from '@/lib/money';
import { useFlow, useProviderName } from '@/stores/flow';
import { DownPaymentTable } from './DownPaymentTable';
import { Failure } from '@/components/Failure';

/*
 * The down payment of an accepted offer (docs/behaviour.md, "What each lender
 * asks for"): the table, the amount due today and how it is paid. In the
 * office the patient hands the tablet to the office team, whose confirmation
 * that they collected it is the lender step; at home the patient confirms
 * they will pay it at the office before treatment. A lender whose waterfall
 * role asks for it (catalogue showDownPaymentAcknowledgeByProviderRoles) adds
 * a box of its own.
 */

/** acknowledgementRequired: the lender's catalogue names the role it has in this office's waterfall. */
export function acknowledgementRequired(
  roles: readonly string[] | undefined,
  waterfall: readonly WaterfallStep[] | null,
  providerKey: string,
): boolean {
  const role = waterfall?.find((s) => s.providerKey === providerKey)?.role;
  return Boolean(role && roles?.includes(role));
}

/** StaffModal pauses the journey until the office team confirms they collected the down payment; cancel hands it back to the patient. */
function StaffModal({
  amount,
  busy,
  failure,
  onConfirm,
  onCancel,
}: {
  amount: string;
  busy: boolean;
  failure: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Modal title="Please hand the tablet to the office team" onClose={onCancel}>
      <p>
        <strong>For the office team:</strong> please collect the down payment of <strong>{amount}</strong> from the patient now, then confirm below.
        The patient continues once you have.
      </p>
      <Failure message={failure} />
      <div className="actions">
        <Button onClick={onConfirm} disabled={busy}>
          I collected the {amount} down payment
        </Button>
        <Button variant="secondary" onClick={onCancel} disabled={busy}>
          Not yet — give the tablet back to the patient
        </Button>
      </div>
    </Modal>
  );
}

export function DownPaymentPage() {
  const navigate = useFlowNavigate();
  const providerKey = useFlow((s) => s.providerKey) ?? '';
  const lender = useProviderName(providerKey);
  const plan = useFlow((s) => s.selectedPaymentPlan);
  const treatmentCents = useFlow((s) => s.purchaseAmountCents);
  const insuranceCents = useFlow((s) => s.insuranceBenefitsCents);
  const inOffice = useFlow((s) => s.experienceType === 'in_store');
  const roles = useFlow((s) => s.providers[providerKey]?.showDownPaymentAcknowledgeByProviderRoles);
  const waterfall = useFlow((s) => s.waterfall);
  const ack = useAgree();
  const atOffice = useAgree();
  const [staff, setStaff] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState('');

  useEffect(() => {
    void loadWaterfall().catch(() => undefined);
  }, []);

  const downCents = plan?.downPaymentCents ?? 0;
  const amount = formatCents(downCents);
  const needsAck = acknowledgementRequired(roles, waterfall, providerKey);

  async function record() {
    setBusy(true);
    setFailure('');
    try {
      const body = {
        amountCents: downCents,
        method: inOffice ? 'collected_in_office' : 'pay_at_office',
        acknowledged: needsAck ? ack.agreed : false,
      };
      const pa = await withProgress(`Letting ${lender} know about your down payment…`, () =>
        api.post<ProviderApplicationState>(providerPath(providerKey, 'application/down-payment'), body, { lenderStep: true, noErrorHandling: true }),
      );
      navigate(await afterStep(providerKey, pa));
    } catch (err) {
      setBusy(false);
      const fe = err instanceof ApiError ? err.fieldErrors[0]?.message : undefined;
      setFailure(fe ?? (err instanceof ApiError ? err.message : 'Something went wrong. Please try again.'));
    }
  }

  function next() {
    let ok = true;
    if (needsAck && !ack.agreed) {
      ack.fail();
      ok = false;
    }
    if (!inOffice && !atOffice.agreed) {
      atOffice.fail();
      ok = false;
    }
    if (!ok) {
      document.getElementById(needsAck && !ack.agreed ? 'dp-ack' : 'dp-at-office')?.focus();
      return;
    }
    if (inOffice) setStaff(true);
    else void record();
  }

  return (
    <div className="card">
      <Page
        title="Your down payment"
        lead={`${lender} asks for a down payment of ${amount}. It comes off your treatment, and your plan covers the rest.`}
      >
        <DownPaymentTable treatmentCents={treatmentCents} insuranceCents={insuranceCents} downPaymentCents={downCents} />
        <h2 style={{ marginTop: 24 }}>How you pay it</h2>
        {inOffice ? (
          <p>
            You pay the {amount} to the office team today, before you sign. When you tap Continue, please hand the tablet to them: they take the
            payment and confirm it here, then hand the tablet back.
          </p>
        ) : (
          <p>
            You pay the {amount} at the office, before your treatment begins. Nothing is charged online. The office team takes it when you arrive.
          </p>
        )}
        {needsAck ? (
          <AgreeBox
            id="dp-ack"
            checked={ack.agreed}
            error={ack.error}
            onChange={ack.set}
            label={`I understand that ${lender} requires a down payment of ${amount}, and that my plan finances the rest of my treatment.`}
          />
        ) : null}
        {inOffice ? null : (
          <AgreeBox
            id="dp-at-office"
            checked={atOffice.agreed}
            error={atOffice.error}
            onChange={atOffice.set}
            label={`I will pay the ${amount} down payment at the office before my treatment begins.`}
          />
        )}
        {failure && !staff ? (
          <p className="notice notice--warn" role="alert">
            {failure}
          </p>
        ) : null}
        <div className="actions">
          <Button onClick={next} disabled={busy || downCents <= 0}>
            Continue
          </Button>
        </div>
      </Page>
      {staff ? (
        <StaffModal
          amount={amount}
          busy={busy}
          failure={failure}
          onConfirm={() => void record()}
          onCancel={() => {
            setStaff(false);
            setFailure('');
          }}
        />
      ) : null}
    </div>
  );
}
