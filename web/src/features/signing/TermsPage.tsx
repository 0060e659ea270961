import { useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { AgreeBox, ConsentDocuments, useAgree, useConsentDocuments } from '@/components/consent/ConsentDocuments';
import { DocumentBox, useDocument } from '@/components/DocumentBox';
import { DocLink } from '@/components/DocLink';
import { FlowNotice } from '@/components/FlowNotice';
import { StillWorking } from '@/components/StillWorking';
import { useFlowNavigate } from '@/flow/navigation';
import { ApiError, errorTarget, isHandled, isStillWorking } from '@/lib/api/client';
import type { Document } from '@/lib/api/types';
import { joinNames } from '@/lib/consent/chain';
import { agreeToAll, consentOf, loadDisclosure } from '@/lib/consent/documents';
import { isPositive } from '@/lib/decision';
import { providerRoute } from '@/lib/paths';
import { nextOpenStep } from '@/lib/lenderSteps';
import { useFlow, useProviderName } from '@/stores/flow';
import { agreementAgreedBefore, esignAndComplete, forgetSigningDocuments, loadAgreement, needsHardPull } from './api/esign';
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

/** One document of the signing screen under its own heading, with its own unticked box. */
function SigningSection({
  id,
  title,
  children,
  doc,
  box,
  label,
}: {
  id: string;
  title: string;
  children: ReactNode;
  doc: { doc: Document | null; failed: boolean; retry: () => void };
  box: ReturnType<typeof useAgree>;
  label: string;
}) {
  return (
    <section className="signing-section" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{title}</h2>
      {children}
      <DocumentBox doc={doc.doc} failed={doc.failed} onRetry={doc.retry} nested />
      <AgreeBox id={id} checked={box.agreed} error={box.error} onChange={box.set} label={label} />
    </section>
  );
}

/**
 * Signing after an accepted offer (docs/behaviour.md, "Signing"): the E-SIGN
 * disclosure, the lender's agreement and — when the offer came from a soft
 * pull — the hard-pull authorisation, each read and agreed to with its own
 * box, then the signature. The server records each consent on its own.
 */
function SignTerms({ providerKey }: { providerKey: string }) {
  const navigate = useFlowNavigate();
  const { pathname } = useLocation();
  const lender = useProviderName(providerKey);
  const hardPull = useFlow((s) => needsHardPull(s.responses[providerKey]));
  // A lender whose steps include the agreement had it read and agreed on its own screen (docs/behaviour.md, "Signing").
  const agreedBefore = useFlow((s) => agreementAgreedBefore(s.providers[providerKey]));
  const esign = useDocument(() => loadDisclosure(providerKey, 'esign', { handled: false }), [providerKey]);
  const agreement = useDocument<Document | null>(
    () => (agreedBefore ? Promise.resolve(null) : loadAgreement(providerKey)),
    [providerKey, agreedBefore],
  );
  const credit = useDocument<Document | null>(
    () => (hardPull ? loadDisclosure(providerKey, 'application', { handled: false }) : Promise.resolve(null)),
    [providerKey, hardPull],
  );
  const esignBox = useAgree();
  const agreementBox = useAgree();
  const creditBox = useAgree();
  const [sig, setSig] = useState<SignatureValue>(EMPTY_SIGNATURE);
  const [sigError, setSigError] = useState(false);
  const [nameRefused, setNameRefused] = useState(false);
  const [changed, setChanged] = useState(false);
  const [busy, setBusy] = useState(false);
  const [waiting, setWaiting] = useState<ApiError | null>(null);

  const boxes = [
    { id: 'esign-consent', box: esignBox, doc: esign.doc },
    ...(agreedBefore ? [] : [{ id: 'agreement-consent', box: agreementBox, doc: agreement.doc }]),
    ...(hardPull ? [{ id: 'hard-pull-consent', box: creditBox, doc: credit.doc }] : []),
  ];

  const submit = async () => {
    const missing = boxes.filter((b) => !b.box.agreed || !b.doc);
    missing.forEach((b) => b.box.fail());
    setSigError(!sig.valid);
    setNameRefused(false);
    if (missing.length || !sig.valid) {
      document.getElementById(missing[0]?.id ?? 'sig-label')?.focus();
      return;
    }
    setBusy(true);
    try {
      // Exactly the documents shown and the black-and-white PNG judged valid are sent.
      const consents = {
        consent: consentOf(esign.doc!),
        agreementConsent: agreedBefore ? undefined : consentOf(agreement.doc!),
        hardPullConsent: hardPull ? consentOf(credit.doc!) : undefined,
      };
      navigate(await esignAndComplete(sig, consents), { replace: true });
    } catch (err) {
      setBusy(false);
      if (isStillWorking(err)) setWaiting(err);
      else if (err instanceof ApiError && err.fieldErrors.some((f) => f.field === 'typedName')) {
        // The typed name is not the applicant's: said at the signature, which keeps focus there.
        setNameRefused(true);
        setSigError(true);
        document.getElementById('sig-label')?.focus();
      } else if (err instanceof ApiError && err.code === 'consent_required') {
        // A document changed since it was shown: show the current ones, to be agreed again.
        forgetSigningDocuments(providerKey);
        boxes.forEach((b) => b.box.set(false));
        [esign, agreement, credit].forEach((d) => d.retry());
        setChanged(true);
      } else if (err instanceof ApiError && err.code === 'conflict') {
        // A lender step still open (docs/behaviour.md, "Signing"): the server says which, and the patient goes there.
        const next = await nextOpenStep(providerKey).catch(() => null);
        if (next && next !== providerRoute(providerKey, 'terms')) navigate(next);
        else if (!isHandled(err)) navigate(errorTarget(err, {}, pathname));
      } else if (!isHandled(err)) navigate(err instanceof ApiError ? errorTarget(err, {}, pathname) : '/error');
    }
  };

  if (waiting) {
    // The signature and consents stay as given (the pad is not shown again, so
    // it cannot be cleared): Try again sends the same, this message staying
    // under the waiting words until the answer comes.
    return <StillWorking lender={lender} offline={waiting.code === 'network'} onRetry={() => void submit()} busy={busy} />;
  }

  return (
    <div className="card">
      <Page title="Read and sign">
        {changed ? (
          <div className="notice notice--warn" role="alert">
            <p style={{ margin: 0 }}>{lender} has updated these documents. Please read them again and tick each box.</p>
          </div>
        ) : null}
        <p>Please read each document below and tick its box. Nothing is signed until you tap “Sign and finish”.</p>
        <SigningSection
          id="esign-consent"
          title="Consent to sign electronically"
          doc={esign}
          box={esignBox}
          label={`I agree to receive and sign my documents from ${lender} electronically.`}
        >
          <p>
            You can ask {lender} for a paper copy of any document at no cost, and you can withdraw this consent at any time by contacting {lender}.
            More about this: <DocLink doc="electronicDisclosuresAndSignatures">electronic documents and signatures</DocLink>.
          </p>
        </SigningSection>
        {agreedBefore ? (
          <section className="signing-section" aria-labelledby="agreement-agreed-heading">
            <h2 id="agreement-agreed-heading">{`Your agreement with ${lender}`}</h2>
            <p>You read and agreed to the {lender} agreement on the screen before this one. Your signature below signs it.</p>
          </section>
        ) : (
          <SigningSection
            id="agreement-consent"
            title={`Your agreement with ${lender}`}
            doc={agreement}
            box={agreementBox}
            label={`I have read the ${lender} agreement and I agree to its terms.`}
          >
            <p>This is what you sign: how you repay {lender} for the plan you chose.</p>
          </SigningSection>
        )}
        {hardPull ? (
          <SigningSection
            id="hard-pull-consent"
            title="Permission for a full credit check"
            doc={credit}
            box={creditBox}
            label={`I allow ${lender} to get my full credit report (a hard credit check) to open my account.`}
          >
            <p>
              Your offer came from a quick check, which did not affect your credit score. To open your account, {lender} will now get your full credit
              report. This is a <strong>hard credit check</strong> and may affect your credit score.
            </p>
          </SigningSection>
        ) : null}
        <div className={`field${sigError ? ' field--error' : ''}`}>
          <span className="label" id="sig-label" tabIndex={-1}>
            Your signature
          </span>
          <span className="hint" id="sig-hint">
            Sign inside the box with your finger or a stylus, or choose to type your name instead.
          </span>
          {sigError ? (
            <span id="sig-error" className="error-text">
              {sig.method === 'typed'
                ? nameRefused
                  ? 'This is not the name on your application. Please type your first and last name as you entered them.'
                  : 'Please type your first and last name to sign.'
                : sig.problem === 'tooLarge'
                  ? 'This signature is too detailed to send. Please clear it and sign again.'
                  : 'Please sign inside the box. If it looks too small, clear it and sign again.'}
            </span>
          ) : null}
          {/* The error stays until the next "Sign and finish": taking it away mid-signature would move the pad under the finger. */}
          <SignatureField onChange={setSig} invalid={sigError} describedBy={sigError ? 'sig-hint sig-error' : 'sig-hint'} />
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
