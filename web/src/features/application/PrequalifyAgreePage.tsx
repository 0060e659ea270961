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
import { Trans, useT } from '@/lib/i18n';

/**
 * PrequalifyAgreePage: the soft-pull authorisation before prequalifying
 * (FCRA §604 consent). It shows the document of the current lender and of
 * every lender the app may then ask on its own, each under its name: the
 * patient agrees to exactly what they were shown, once, for all of them.
 */
export function PrequalifyAgreePage() {
  const navigate = useFlowNavigate();
  const providerKey = useFlow((s) => s.providerKey)!;
  const mode = useFlow((s) => s.applyMode);
  const joint = useFlow((s) => s.jointEnabled);
  const lender = useProviderName(providerKey);
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
        <p>
          {t('application.agree.intro', { lender })}
          {many ? (
            <> {t('application.agree.others', { lender, others: others.join(t('application.agree.then')), count: others.length })}</>
          ) : null}{' '}
          <Trans i18nKey="application.agree.soft" count={count} components={{ strong: <strong /> }} />
        </p>
        {joint ? <p>{t('application.agree.joint')}</p> : null}
        {many ? <p>{t('application.agree.readEach')}</p> : null}
        <ConsentDocuments docs={docs} />
        <p>
          <Trans i18nKey="application.agree.share" count={count} components={{ doc: <DocLink doc="privacyNotice" /> }} />
        </p>
        <AgreeBox
          id="agree"
          checked={box.agreed}
          error={box.error}
          onChange={box.set}
          label={many ? t('application.agree.boxMany', { names: joinNames(docs.names) }) : t('application.agree.box')}
        />
        <div className="actions">
          <Button onClick={submit} disabled={!docs.items}>
            {t('application.agree.button')}
          </Button>
        </div>
      </Page>
    </div>
  );
}
