import { useEffect, useState } from 'react';
import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { Modal } from '@/components/Modal';
import { AgreeBox, useAgree } from '@/components/consent/ConsentDocuments';
import { useFlowNavigate } from '@/flow/navigation';
import { withProgress } from '@/flow/progress';
import { api, ApiError, lenderPath } from '@/lib/api/client';
import type { ProviderApplicationState, WaterfallStep } from '@/lib/api/types';
import { loadWaterfall } from '@/lib/consent/documents';
import { Trans, useT } from '@/lib/i18n';
import { afterStep } from '@/lib/lenderSteps';
import { formatCents } from '@/lib/money';
import { useFlow, useLenderName } from '@/stores/flow';
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
  const t = useT();
  return (
    <Modal title={t('offers.downPayment.staffTitle')} onClose={onCancel}>
      <p>
        <Trans i18nKey="offers.downPayment.staffBody" values={{ amount }} components={{ strong: <strong /> }} />
      </p>
      <Failure message={failure} />
      <div className="actions">
        <Button onClick={onConfirm} disabled={busy}>
          {t('offers.downPayment.collected', { amount })}
        </Button>
        <Button variant="secondary" onClick={onCancel} disabled={busy}>
          {t('offers.downPayment.notYet')}
        </Button>
      </div>
    </Modal>
  );
}

export function DownPaymentPage() {
  const t = useT();
  const navigate = useFlowNavigate();
  const providerKey = useFlow((s) => s.providerKey) ?? '';
  const lender = useLenderName(providerKey);
  const plan = useFlow((s) => s.selectedPaymentPlan);
  const treatmentCents = useFlow((s) => s.purchaseAmountCents);
  const insuranceCents = useFlow((s) => s.insuranceBenefitsCents);
  const inOffice = useFlow((s) => s.experienceType === 'in_store');
  const roles = useFlow((s) => s.lenders[providerKey]?.showDownPaymentAcknowledgeByProviderRoles);
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
      const pa = await withProgress(t('offers.downPayment.progress', { lender }), () =>
        api.post<ProviderApplicationState>(lenderPath(providerKey, 'application/down-payment'), body, { lenderStep: true, noErrorHandling: true }),
      );
      navigate(await afterStep(providerKey, pa));
    } catch (err) {
      setBusy(false);
      const fe = err instanceof ApiError ? err.fieldErrors[0]?.message : undefined;
      setFailure(fe ?? (err instanceof ApiError ? err.message : t('offers.failed')));
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
      <Page title={t('offers.downPayment.title')} lead={t('offers.downPayment.lead', { lender, amount })}>
        {plan ? <DownPaymentTable plan={plan} treatmentCents={treatmentCents} insuranceCents={insuranceCents} schedule /> : null}
        <h2 style={{ marginTop: 24 }}>{t('offers.downPayment.howTitle')}</h2>
        {inOffice ? <p>{t('offers.downPayment.inOffice', { amount })}</p> : <p>{t('offers.downPayment.atHome', { amount })}</p>}
        {needsAck ? (
          <AgreeBox id="dp-ack" checked={ack.agreed} error={ack.error} onChange={ack.set} label={t('offers.downPayment.ack', { lender, amount })} />
        ) : null}
        {inOffice ? null : (
          <AgreeBox
            id="dp-at-office"
            checked={atOffice.agreed}
            error={atOffice.error}
            onChange={atOffice.set}
            label={t('offers.downPayment.atOffice', { amount })}
          />
        )}
        {failure && !staff ? (
          <p className="notice notice--warn" role="alert">
            {failure}
          </p>
        ) : null}
        <div className="actions">
          <Button onClick={next} disabled={busy || downCents <= 0}>
            {t('offers.continue')}
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
