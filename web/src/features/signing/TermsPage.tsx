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
import { t as translate, Trans, useT } from '@/lib/i18n';
import { lenderRoute } from '@/lib/paths';
import { nextOpenStep } from '@/lib/lenderSteps';
import { useFlow, useLenderName } from '@/stores/flow';
import { agreementAgreedBefore, esignAndComplete, forgetSigningDocuments, loadAgreement, needsHardPull, usesExistingAccount } from './api/esign';
import { thenList } from './messages';
import { PlanFigures } from '@/components/PlanFigures';
import { SignatureField } from './SignatureField';
import { EMPTY_SIGNATURE, type SignatureValue } from './signature';

/**
 * Consent to apply (full mode, before a decision): a hard credit check. Like
 * the soft-pull screen, it shows the document of every lender the app may
 * then send the application to on its own, each under its name.
 */
function ApplyTerms({ providerKey }: { providerKey: string }) {
  const t = useT();
  const navigate = useFlowNavigate();
  const lender = useLenderName(providerKey);
  const docs = useConsentDocuments(providerKey, 'full');
  const box = useAgree();
  const others = docs.names.slice(1);
  const many = others.length > 0;
  return (
    <div className="card">
      <Page title={t('signing.apply.title')}>
        <FlowNotice />
        <p>
          {t('signing.apply.intro', { lender })}
          {many ? ` ${t('signing.apply.others', { lender, others: thenList(others), count: others.length })}` : null}{' '}
          <Trans i18nKey={many ? 'signing.apply.hardCheckEach' : 'signing.apply.hardCheckOne'} components={{ strong: <strong /> }} />
        </p>
        {many ? <p>{t('signing.apply.readEach')}</p> : null}
        <ConsentDocuments docs={docs} />
        <AgreeBox
          id="apply-agree"
          checked={box.agreed}
          error={box.error}
          onChange={box.set}
          label={many ? t('signing.apply.agreeMany', { lenders: joinNames(docs.names) }) : t('signing.apply.agree')}
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
              navigate(lenderRoute(providerKey, 'fullApplicationSubmit'));
            }}
            disabled={!docs.items}
          >
            {t('signing.apply.submit')}
          </Button>
        </div>
      </Page>
    </div>
  );
}

/**
 * The link to our page on electronic documents, inside a sentence whose words
 * (the children) come from the message, as <doc>…</doc>: not <link>, which
 * Trans's HTML parser takes for the void element and leaves empty.
 */
function EsignLink({ children }: { children?: ReactNode }) {
  return <DocLink doc="electronicDisclosuresAndSignatures">{children}</DocLink>;
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
 * hardPullWords are the words of the signing screen's last consent. A
 * lease-to-own lender's lease is not credit and needs no credit history
 * (docs/behaviour.md, "Consents"): it is asked only to verify what the
 * patient gave and open the lease, never for a credit check.
 */
function hardPullWords(lease: boolean, lender: string): { title: string; box: string; body: ReactNode } {
  if (lease) {
    return {
      title: translate('signing.sign.leaseCheckTitle'),
      box: translate('signing.sign.leaseCheckBox', { lender }),
      body: translate('signing.sign.leaseCheckBody', { lender }),
    };
  }
  return {
    title: translate('signing.sign.hardPullTitle'),
    box: translate('signing.sign.hardPullBox', { lender }),
    body: <Trans i18nKey="signing.sign.hardPullBody" values={{ lender }} components={{ strong: <strong /> }} />,
  };
}

/**
 * Signing after an accepted offer (docs/behaviour.md, "Signing"): the E-SIGN
 * disclosure, the lender's agreement and — when the offer came from a soft
 * pull — the hard-pull authorisation, each read and agreed to with its own
 * box, then the signature. The server records each consent on its own.
 */
function SignTerms({ providerKey }: { providerKey: string }) {
  const t = useT();
  const navigate = useFlowNavigate();
  const { pathname } = useLocation();
  const lender = useLenderName(providerKey);
  const hardPull = useFlow((s) => needsHardPull(s.responses[providerKey]));
  const lease = useFlow((s) => s.lenders[providerKey]?.kind === 'lease_to_own');
  const pullWords = hardPullWords(lease, lender);
  const existing = useFlow((s) => usesExistingAccount(s.responses[providerKey]));
  // The plan chosen with this lender, shown as it was reviewed: what the signature is for.
  const plan = useFlow((s) => (s.selectedPaymentPlan?.providerKey === providerKey ? s.selectedPaymentPlan : null));
  // A lender whose steps include the agreement had it read and agreed on its own screen (docs/behaviour.md, "Signing").
  const agreedBefore = useFlow((s) => agreementAgreedBefore(s.lenders[providerKey]));
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
        if (next && next !== lenderRoute(providerKey, 'terms')) navigate(next);
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
      <Page title={t('signing.sign.title')}>
        {changed ? (
          <div className="notice notice--warn" role="alert">
            <p style={{ margin: 0 }}>{t('signing.sign.changed', { lender })}</p>
          </div>
        ) : null}
        <p>{t('signing.sign.intro')}</p>
        {existing ? <p>{t('signing.sign.existingAccount', { lender })}</p> : null}
        {plan ? (
          <section className="signing-section" aria-labelledby="signing-plan-heading">
            <h2 id="signing-plan-heading">{t('signing.sign.planTitle')}</h2>
            <PlanFigures plan={plan} />
          </section>
        ) : null}
        <SigningSection
          id="esign-consent"
          title={t('signing.sign.esignTitle')}
          doc={esign}
          box={esignBox}
          label={t('signing.sign.esignBox', { lender })}
        >
          <p>
            <Trans i18nKey="signing.sign.esignBody" values={{ lender }} components={{ doc: <EsignLink /> }} />
          </p>
        </SigningSection>
        {agreedBefore ? (
          <section className="signing-section" aria-labelledby="agreement-agreed-heading">
            <h2 id="agreement-agreed-heading">{t('signing.sign.agreementTitle', { lender })}</h2>
            <p>{t('signing.sign.agreedBefore', { lender })}</p>
          </section>
        ) : (
          <SigningSection
            id="agreement-consent"
            title={t('signing.sign.agreementTitle', { lender })}
            doc={agreement}
            box={agreementBox}
            label={t('signing.sign.agreementBox', { lender })}
          >
            <p>{t('signing.sign.agreementBody', { lender })}</p>
          </SigningSection>
        )}
        {hardPull ? (
          <SigningSection id="hard-pull-consent" title={pullWords.title} doc={credit} box={creditBox} label={pullWords.box}>
            <p>{pullWords.body}</p>
          </SigningSection>
        ) : null}
        <div className={`field${sigError ? ' field--error' : ''}`}>
          <span className="label" id="sig-label" tabIndex={-1}>
            {t('signing.sign.signatureLabel')}
          </span>
          <span className="hint" id="sig-hint">
            {t('signing.sign.signatureHint')}
          </span>
          {sigError ? (
            <span id="sig-error" className="error-text">
              {sig.method === 'typed'
                ? nameRefused
                  ? t('signing.sign.notYourName')
                  : t('signing.sign.typeYourName')
                : sig.problem === 'tooLarge'
                  ? t('signing.sign.tooLarge')
                  : t('signing.sign.signInBox')}
            </span>
          ) : null}
          {/* The error stays until the next "Sign and finish": taking it away mid-signature would move the pad under the finger. */}
          <SignatureField onChange={setSig} invalid={sigError} describedBy={sigError ? 'sig-hint sig-error' : 'sig-hint'} />
        </div>
        <div className="actions">
          <Button onClick={submit} disabled={busy}>
            {t('signing.sign.submit')}
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
