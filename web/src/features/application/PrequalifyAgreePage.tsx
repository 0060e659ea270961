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
  const others = docs.names.slice(1);
  const many = others.length > 0;
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
      <Page title="Before we check your options">
        <FlowNotice />
        <p>
          {lender} will look at your credit report to see if you prequalify.
          {many ? (
            <>
              {' '}
              If {lender} can’t approve you, we will ask {others.join(', then ')}
              {others.length > 1 ? ',' : ''} for you. {others.length > 1 ? 'Each of them' : 'They'} will look at your credit report too.
            </>
          ) : null}{' '}
          {many ? 'These are' : 'This is a'} <strong>soft credit check{many ? 's' : ''}</strong>. {many ? 'They do' : 'It does'} <strong>not</strong>{' '}
          affect your credit score.
        </p>
        {joint ? <p>The joint applicant agrees to the same for their own credit report.</p> : null}
        {many ? <p>Please read what you agree to with each lender:</p> : null}
        <ConsentDocuments docs={docs} />
        <p>
          We share your details only with the {many ? 'lenders' : 'lender'} named here. Our <DocLink doc="privacyNotice">privacy notice</DocLink> says
          how your information is used and kept safe.
        </p>
        <AgreeBox
          id="agree"
          checked={box.agreed}
          error={box.error}
          onChange={box.set}
          label={
            many
              ? `I have read these and I agree to a soft credit check by ${joinNames(docs.names)}.`
              : 'I have read this and I agree to a soft credit check.'
          }
        />
        <div className="actions">
          <Button onClick={submit} disabled={!docs.items}>
            Check my options
          </Button>
        </div>
      </Page>
    </div>
  );
}
