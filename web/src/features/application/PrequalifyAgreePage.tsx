import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { FlowNotice } from '@/components/FlowNotice';
import { DocLink } from '@/components/DocLink';
import { AgreeBox, ConsentDocuments, useAgree, useConsentDocuments } from '@/components/consent/ConsentDocuments';
import { useFlowNavigate } from '@/flow/navigation';
import { joinNames } from '@/lib/consent/chain';
import { agreeToAll } from '@/lib/consent/documents';
import { providerRoute } from '@/lib/paths';
import { useFlow, useProviderName } from '@/stores/flow';
import { t as translate, Trans, useT } from '@/lib/i18n';

/**
 * LeaseWords: who checks what, when the first lender leases (catalogue kind
 * lease_to_own, Snap): a lease needs no credit history, so it only looks at
 * the details given; the lenders after it, which offer credit, make the soft
 * credit checks (docs/behaviour.md, "Consents").
 */
function LeaseWords({ lender, others }: { lender: string; others: string[] }) {
  const t = useT();
  return (
    <p>
      {t('application.agree.leaseIntro', { lender })}
      {others.length ? (
        <>
          {' '}
          {t('application.agree.leaseOthers', { lender, others: others.join(t('application.agree.then')), count: others.length })}{' '}
          <Trans i18nKey="application.agree.soft" count={others.length} components={{ strong: <strong /> }} />
        </>
      ) : null}
    </p>
  );
}

/**
 * PrequalifyAgreePage: the soft-pull authorisation before prequalifying
 * (FCRA §604 consent). It shows the document of the current lender and of
 * every lender the app may then ask on its own, each under its name: the
 * patient agrees to exactly what they were shown, once, for all of them.
 */
/** agreeLabel: what the box agrees to — a soft credit check by each lender, but none by a lease-to-own first lender. */
function agreeLabel(lease: boolean, lender: string, others: string[], names: string[]): string {
  if (lease) {
    return others.length
      ? translate('application.agree.leaseBoxMany', { lender, names: joinNames(others) })
      : translate('application.agree.leaseBox', { lender });
  }
  return names.length > 1 ? translate('application.agree.boxMany', { names: joinNames(names) }) : translate('application.agree.box');
}

export function PrequalifyAgreePage() {
  const navigate = useFlowNavigate();
  const providerKey = useFlow((s) => s.providerKey)!;
  const mode = useFlow((s) => s.applyMode);
  const joint = useFlow((s) => s.jointEnabled);
  const lender = useProviderName(providerKey);
  const lease = useFlow((s) => s.providers[providerKey]?.kind === 'lease_to_own');
  const docs = useConsentDocuments(providerKey, mode === 'full' ? 'prequalify' : mode);
  const box = useAgree();
  const t = useT();
  const others = docs.names.slice(1);
  const many = others.length > 0;
  // How many lenders check: one until the documents say more.
  const count = Math.max(1, docs.names.length);
  const submit = () => {
    if (!box.agreed || !docs.items) {
      box.fail();
      document.getElementById('agree')?.focus();
      return;
    }
    agreeToAll(docs.items);
    navigate(providerRoute(providerKey, 'prequalifyAgreeNext'));
  };
  return (
    <div className="card">
      <Page title={t('application.agree.title')}>
        <FlowNotice />
        {lease ? (
          <LeaseWords lender={lender} others={others} />
        ) : (
          <p>
            {t('application.agree.intro', { lender })}
            {many ? (
              <> {t('application.agree.others', { lender, others: others.join(t('application.agree.then')), count: others.length })}</>
            ) : null}{' '}
            <Trans i18nKey="application.agree.soft" count={count} components={{ strong: <strong /> }} />
          </p>
        )}
        {joint ? <p>{t('application.agree.joint')}</p> : null}
        {many ? <p>{t('application.agree.readEach')}</p> : null}
        <ConsentDocuments docs={docs} />
        <p>
          <Trans i18nKey="application.agree.share" count={count} components={{ doc: <DocLink doc="privacyNotice" /> }} />
        </p>
        <AgreeBox id="agree" checked={box.agreed} error={box.error} onChange={box.set} label={agreeLabel(lease, lender, others, docs.names)} />
        <div className="actions">
          <Button onClick={submit} disabled={!docs.items}>
            {t('application.agree.button')}
          </Button>
        </div>
      </Page>
    </div>
  );
}
