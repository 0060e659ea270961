import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { FlowNotice } from '@/components/FlowNotice';
import { DocLink } from '@/components/DocLink';
import { AgreeBox, ConsentDocuments, useAgree, useConsentDocuments } from '@/components/consent/ConsentDocuments';
import { useFlowNavigate } from '@/flow/navigation';
import { joinNames } from '@/lib/consent/chain';
import { agreeToAll } from '@/lib/consent/documents';
import { lenderRoute } from '@/lib/paths';
import { useFlow, useLenderName } from '@/stores/flow';
import { t as translate, Trans, useT } from '@/lib/i18n';

/** One lender of the chain the soft-pull screen asks for: its name, and whether it leases (catalogue kind lease_to_own). */
interface Asked {
  name: string;
  lease: boolean;
}

/**
 * chainWords: who checks what, lender by lender. A lease needs no credit
 * history, so a lease-to-own lender (Snap) only looks at the details given,
 * wherever it stands in the chain; every credit lender makes a soft credit
 * check (docs/behaviour.md, "Consents").
 */
function chainWords(first: Asked, others: Asked[]): string[] {
  const words = [translate(first.lease ? 'application.agree.leaseIntro' : 'application.agree.intro', { lender: first.name })];
  if (!others.length) return words;
  const then = translate('application.agree.then');
  words.push(translate('application.agree.ask', { lender: first.name, others: others.map((o) => o.name).join(then), count: others.length }));
  const credit = others.filter((o) => !o.lease).map((o) => o.name);
  const leases = others.filter((o) => o.lease).map((o) => o.name);
  // "too" when the first lender has looked at the credit report already.
  if (credit.length)
    words.push(
      translate(first.lease ? 'application.agree.credit' : 'application.agree.creditToo', { names: joinNames(credit), count: credit.length }),
    );
  if (leases.length) words.push(translate('application.agree.leaseOthers', { names: joinNames(leases), count: leases.length }));
  return words;
}

/** agreeLabel: what the box agrees to — a soft credit check by each credit lender, and that each lease looks at the details given. */
function agreeLabel(chain: Asked[]): string {
  const credit = chain.filter((a) => !a.lease).map((a) => a.name);
  const leases = chain.filter((a) => a.lease).map((a) => a.name);
  if (!leases.length)
    return credit.length > 1 ? translate('application.agree.boxMany', { names: joinNames(credit) }) : translate('application.agree.box');
  if (!credit.length)
    return translate(chain.length > 1 ? 'application.agree.leaseBoxAll' : 'application.agree.leaseBox', { lender: joinNames(leases) });
  return translate('application.agree.leaseBoxMany', { lender: joinNames(leases), names: joinNames(credit) });
}

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
  const lender = useLenderName(providerKey);
  const lenders = useFlow((s) => s.lenders);
  const docs = useConsentDocuments(providerKey, mode === 'full' ? 'prequalify' : mode);
  const box = useAgree();
  const t = useT();
  const isLease = (key: string) => lenders[key]?.kind === 'lease_to_own';
  // The chain as the documents name it; until they arrive, the current lender alone.
  const chain: Asked[] = docs.items
    ? docs.items.map((i, n) => ({ name: docs.names[n]!, lease: isLease(i.target.providerKey) }))
    : [{ name: lender, lease: isLease(providerKey) }];
  const [first, ...others] = chain;
  const many = others.length > 0;
  // How many soft credit checks: the credit lenders of the chain.
  const soft = chain.filter((a) => !a.lease).length;
  const submit = () => {
    if (!box.agreed || !docs.items) {
      box.fail();
      document.getElementById('agree')?.focus();
      return;
    }
    agreeToAll(docs.items);
    navigate(lenderRoute(providerKey, 'prequalifyAgreeNext'));
  };
  return (
    <div className="card">
      <Page title={t('application.agree.title')}>
        <FlowNotice />
        <p>
          {chainWords(first!, others).join(' ')}
          {soft ? (
            <>
              {' '}
              <Trans i18nKey="application.agree.soft" count={soft} components={{ strong: <strong /> }} />
            </>
          ) : null}
        </p>
        {joint ? <p>{t('application.agree.joint')}</p> : null}
        {many ? <p>{t('application.agree.readEach')}</p> : null}
        <ConsentDocuments docs={docs} />
        <p>
          <Trans i18nKey="application.agree.share" count={chain.length} components={{ doc: <DocLink doc="privacyNotice" /> }} />
        </p>
        <AgreeBox id="agree" checked={box.agreed} error={box.error} onChange={box.set} label={agreeLabel(chain)} />
        <div className="actions">
          <Button onClick={submit} disabled={!docs.items}>
            {t('application.agree.button')}
          </Button>
        </div>
      </Page>
    </div>
  );
}
