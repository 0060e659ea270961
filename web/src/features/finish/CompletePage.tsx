import { useEffect, useState } from 'react';
import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { ResultIcon } from '@/components/ResultIcon';
import { finishFlow, finishLater } from '@/flow/finish';
import { useFlowNavigate } from '@/flow/navigation';
import { Trans, useT } from '@/lib/i18n';
import { paymentsLine } from '@/lib/money';
import { useWording } from '@/lib/wording';
import { useFlow, useLenderName } from '@/stores/flow';

/**
 * CompletePage: the application is signed and complete. Arriving here
 * finishes the application with the delay flag (docs/behaviour.md,
 * "Finishing"): the patient can read their plan for a minute, then the
 * screen forgets it by itself, even if nobody presses Finish.
 */
export function CompletePage() {
  const t = useT();
  const navigate = useFlowNavigate();
  const providerKey = useFlow((s) => s.providerKey);
  const livePlan = useFlow((s) => s.selectedPaymentPlan);
  const liveLender = useLenderName(providerKey);
  // The catalogue's fundingName is what pays the office (a card account, a loan, a lease).
  const liveFunding = useFlow((s) => (s.providerKey ? s.lenders[s.providerKey]?.fundingName : undefined));
  const liveOffice = useFlow((s) => s.location?.name);
  const atHome = useFlow((s) => s.experienceType === 'at_home');
  const live = useFlow((s) => Boolean(s.session));
  const [hadSession] = useState(live);
  const cleared = hadSession && !live;
  // What the screen shows, kept so the title stays readable; the details go once the store is cleared.
  const [shown] = useState(() => ({ lender: liveLender, plan: livePlan, funding: liveFunding, office: liveOffice }));
  const { lender } = shown;
  const plan = cleared ? null : shown.plan;
  const funding = cleared ? undefined : shown.funding;
  const office = shown.office;
  useEffect(() => {
    void finishLater('completed');
  }, []);
  const words = useWording();
  const [busy, setBusy] = useState(false);
  const finish = async () => {
    setBusy(true);
    navigate(await finishFlow('completed'), { replace: true });
  };
  return (
    <div className="card">
      <ResultIcon kind="ok" />
      <Page title={t('finish.complete.title')} lead={t('finish.complete.lead', { lender })}>
        {funding ? <p>{t('finish.complete.funding', { funding, practice: office || words.practice })}</p> : null}
        {plan ? (
          <p>
            <Trans i18nKey="finish.complete.plan" values={{ payments: paymentsLine(plan) }} components={{ strong: <strong /> }} />
          </p>
        ) : null}
        {cleared ? <p>{t('finish.complete.cleared')}</p> : null}
        <p>
          {t('finish.complete.mail', { lender })}{' '}
          {atHome ? t('finish.complete.closeAfterFinish') : t('finish.complete.handBack', { staff: words.staff })}
        </p>
        <div className="actions">
          <Button onClick={finish} disabled={busy}>
            {t('finish.complete.finish')}
          </Button>
        </div>
      </Page>
    </div>
  );
}
