import { useState } from 'react';
import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { DocumentBox, useDocument } from '@/components/DocumentBox';
import { agree, loadDisclosure, providerRoute } from '@/flow/commands';
import { useFlowNavigate } from '@/flow/navigation';
import { providerName, useFlow } from '@/stores/flow';

/** PrequalifyAgreePage: the soft-pull authorisation before prequalifying (FCRA §604 consent). */
export function PrequalifyAgreePage() {
  const navigate = useFlowNavigate();
  const providerKey = useFlow((s) => s.providerKey)!;
  const joint = useFlow((s) => s.jointEnabled);
  const lender = providerName(providerKey);
  const { doc, failed, retry } = useDocument(() => loadDisclosure(providerKey, 'prequalification', { handled: false }), [providerKey]);
  const [agreed, setAgreed] = useState(false);
  const [error, setError] = useState(false);
  const submit = () => {
    if (!agreed || !doc) {
      setError(true);
      document.getElementById('agree')?.focus();
      return;
    }
    agree(providerKey, 'prequalification', doc);
    navigate(providerRoute(providerKey, 'prequalifyAgreeNext'));
  };
  return (
    <div className="card">
      <Page title="Before we check your options">
        <p>
          {lender} and the other lenders this office works with will look at your credit report to see if you prequalify. This is a{' '}
          <strong>soft credit check</strong>. It does <strong>not</strong> affect your credit score.
        </p>
        {joint ? <p>The joint applicant agrees to the same for their own credit report.</p> : null}
        <DocumentBox doc={doc} failed={failed} onRetry={retry} />
        <div className={`field${error ? ' field--error' : ''}`} style={{ marginTop: 16 }}>
          {error ? (
            <span id="agree-error" className="error-text">
              Please check the box to continue
            </span>
          ) : null}
          <label className="check" htmlFor="agree">
            <input
              id="agree"
              type="checkbox"
              checked={agreed}
              aria-describedby={error ? 'agree-error' : undefined}
              aria-invalid={error || undefined}
              onChange={(e) => {
                setAgreed(e.target.checked);
                if (e.target.checked) setError(false);
              }}
            />
            <span>I have read this and I agree to a soft credit check.</span>
          </label>
        </div>
        <div className="actions">
          <Button onClick={submit} disabled={!doc}>
            Check my options
          </Button>
        </div>
      </Page>
    </div>
  );
}
