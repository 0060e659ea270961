import { useState } from 'react';
import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { AgreeBox, ConsentDocuments, useAgree, useConsentDocuments } from '@/components/consent/ConsentDocuments';
import { DocumentBox, useDocument } from '@/components/DocumentBox';
import { FlowNotice } from '@/components/FlowNotice';
import { StillWorking } from '@/components/StillWorking';
import { useFlowNavigate } from '@/flow/navigation';
import { ApiError, isHandled, isStillWorking } from '@/lib/api/client';
import { joinNames } from '@/lib/consent/chain';
import { agree, agreeToAll, loadDisclosure } from '@/lib/consent/documents';
import { isPositive } from '@/lib/decision';
import { providerRoute } from '@/lib/paths';
import { useFlow, useProviderName } from '@/stores/flow';
import { esignAndComplete } from './api/esign';
import { SignatureField } from './SignatureField';
import { EMPTY_SIGNATURE, type SignatureValue } from './signature';

/**
 * Consent to apply (full mode, before a decision): a hard credit check. Like
 * the soft-pull screen, it shows the document of every lender the app may
 * then send the application to on its own, each under its name.
 */
function ApplyTerms({ providerKey }: { providerKey: string }) {
  const navigate = useFlowNavigate();
  const lender = useProviderName(providerKey);
  const docs = useConsentDocuments(providerKey, 'full');
  const box = useAgree();
  const others = docs.names.slice(1);
  const many = others.length > 0;
  return (
    <div className="card">
      <Page title="Terms of your application">
        <FlowNotice />
        <p>
          By submitting this application you ask {lender} for credit and allow {lender} to get your credit report.
          {many ? (
            <>
              {' '}
              If {lender} can’t approve you, we will send your application to {others.join(', then ')}
              {others.length > 1 ? ',' : ''} for you, and {others.length > 1 ? 'each of them' : 'they'} will get your credit report too.
            </>
          ) : null}{' '}
          {many ? 'Each is a' : 'This is a'} <strong>hard credit check</strong> and may affect your credit score.
        </p>
        {many ? <p>Please read what you agree to with each lender:</p> : null}
        <ConsentDocuments docs={docs} />
        <AgreeBox
          id="apply-agree"
          checked={box.agreed}
          error={box.error}
          onChange={box.set}
          label={many ? `I have read these terms and I want to apply with ${joinNames(docs.names)}.` : 'I have read the terms and I want to apply.'}
        />
        <div className="actions">
          <Button
            onClick={() => {
              if (!box.agreed || !docs.items) {
                box.fail();
                document.getElementById('apply-agree')?.focus();
                return;
              }
              agreeToAll(docs.items);
              navigate(providerRoute(providerKey, 'fullApplicationSubmit'));
            }}
            disabled={!docs.items}
          >
            Submit application
          </Button>
        </div>
      </Page>
    </div>
  );
}

/** E-consent and signature after accepting an offer (E-SIGN Act disclosures). */
function SignTerms({ providerKey }: { providerKey: string }) {
  const navigate = useFlowNavigate();
  const lender = useProviderName(providerKey);
  const { doc, failed, retry } = useDocument(() => loadDisclosure(providerKey, 'esign', { handled: false }), [providerKey]);
  const [consent, setConsent] = useState(false);
  const [sig, setSig] = useState<SignatureValue>(EMPTY_SIGNATURE);
  const [errors, setErrors] = useState<{ consent?: boolean; sig?: boolean }>({});
  const [busy, setBusy] = useState(false);
  const [waiting, setWaiting] = useState<ApiError | null>(null);

  const submit = async () => {
    const e = { consent: !consent || !doc, sig: !sig.valid };
    setErrors(e);
    if (e.consent || e.sig) {
      document.getElementById(e.consent ? 'esign-consent' : 'sig-label')?.focus();
      return;
    }
    setBusy(true);
    try {
      agree(providerKey, 'esign', doc!);
      // Exactly the black-and-white PNG that was judged valid is sent.
      const to = await esignAndComplete(sig.png);
      navigate(to, { replace: true });
    } catch (err) {
      setBusy(false);
      if (isStillWorking(err)) setWaiting(err);
      else if (!isHandled(err)) navigate('/error');
    }
  };

  if (waiting) {
    // The signature and consent stay as given (the pad is not shown again, so
    // it cannot be cleared): Try again sends the same, this message staying
    // under the waiting words until the answer comes.
    return <StillWorking lender={lender} offline={waiting.code === 'network'} onRetry={() => void submit()} busy={busy} />;
  }

  return (
    <div className="card">
      <Page title="Read and sign">
        <h2>Consent to sign electronically</h2>
        <p>
          You can ask {lender} for a paper copy of any document at no cost, and you can withdraw this consent at any time by contacting {lender}.
        </p>
        <DocumentBox doc={doc} failed={failed} onRetry={retry} />
        <div className={`field${errors.consent ? ' field--error' : ''}`} style={{ marginTop: 16 }}>
          {errors.consent ? (
            <span id="esign-consent-error" className="error-text">
              Please check the box to continue
            </span>
          ) : null}
          <label className="check" htmlFor="esign-consent">
            <input
              id="esign-consent"
              type="checkbox"
              checked={consent}
              aria-invalid={errors.consent || undefined}
              aria-describedby={errors.consent ? 'esign-consent-error' : undefined}
              onChange={(e) => setConsent(e.target.checked)}
            />
            <span>I agree to sign electronically and to the terms above.</span>
          </label>
        </div>
        <div className={`field${errors.sig ? ' field--error' : ''}`}>
          <span className="label" id="sig-label" tabIndex={-1}>
            Your signature
          </span>
          <span className="hint" id="sig-hint">
            Sign inside the box with your finger or a stylus.
          </span>
          {errors.sig ? (
            <span id="sig-error" className="error-text">
              {sig.problem === 'tooLarge'
                ? 'This signature is too detailed to send. Please clear it and sign again.'
                : 'Please sign inside the box. If it looks too small, clear it and sign again.'}
            </span>
          ) : null}
          {/* The error stays until the next "Sign and finish": taking it away mid-signature would move the pad under the finger. */}
          <SignatureField onChange={setSig} invalid={errors.sig} describedBy={errors.sig ? 'sig-hint sig-error' : 'sig-hint'} />
        </div>
        <div className="actions">
          <Button onClick={submit} disabled={busy}>
            Sign and finish
          </Button>
        </div>
      </Page>
    </div>
  );
}

/** TermsPage: in full mode before a decision it is the application's terms; otherwise e-consent and signature. */
export function TermsPage() {
  const providerKey = useFlow((s) => s.providerKey)!;
  const mode = useFlow((s) => s.applyMode);
  const r = useFlow((s) => s.responses[providerKey]);
  const decided = isPositive((r?.apply ?? r?.preAuth)?.responseCode) && (mode !== 'full' || Boolean(r?.apply));
  if (mode === 'full' && !decided) return <ApplyTerms providerKey={providerKey} />;
  return <SignTerms providerKey={providerKey} />;
}
