import { useState, type ReactNode } from 'react';
import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { AgreeBox, useAgree } from '@/components/consent/ConsentDocuments';
import { DocumentBox, useDocument } from '@/components/DocumentBox';
import { useFlowNavigate } from '@/flow/navigation';
import { ApiError } from '@/lib/api/client';
import type { ConsentInput, Document } from '@/lib/api/types';
import { consentOf } from '@/lib/consent/documents';
import { Failure } from '@/components/Failure';
import { useT } from '@/lib/i18n';

/**
 * ConsentStepScreen is a lender step that is one document read and agreed to
 * on a screen of its own (docs/behaviour.md, "Signing"): the document as the
 * server sent it, one unticked box, and a button that sends the consent
 * naming exactly that document and goes where the answer leads.
 */
export function ConsentStepScreen({
  title,
  lead,
  load,
  deps,
  boxLabel,
  button,
  send,
}: {
  title: string;
  lead: ReactNode;
  load: () => Promise<Document>;
  deps: unknown[];
  boxLabel: string;
  button: string;
  /** Sends the consent; answers the route to go to next. */
  send: (consent: ConsentInput) => Promise<string>;
}) {
  const navigate = useFlowNavigate();
  const doc = useDocument(load, deps);
  const box = useAgree();
  const [busy, setBusy] = useState(false);
  // Our own failures are kept by kind and worded at render, so they follow a change of language; the server's words are kept as sent.
  const [failure, setFailure] = useState<{ kind: 'updated' | 'failed' } | { kind: 'server'; message: string } | null>(null);
  const t = useT();

  async function go() {
    if (!box.agreed || !doc.doc) {
      box.fail();
      document.getElementById('step-consent')?.focus();
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      navigate(await send(consentOf(doc.doc)));
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && err.code === 'consent_required') {
        setFailure({ kind: 'updated' });
        box.set(false);
        doc.retry();
      } else setFailure(err instanceof ApiError ? { kind: 'server', message: err.message } : { kind: 'failed' });
    }
  }

  return (
    <div className="card">
      <Page title={title} lead={lead}>
        <DocumentBox doc={doc.doc} failed={doc.failed} onRetry={doc.retry} />
        <AgreeBox id="step-consent" checked={box.agreed} error={box.error} onChange={box.set} label={boxLabel} />
        <Failure
          message={
            failure?.kind === 'server'
              ? failure.message
              : failure?.kind === 'updated'
                ? t('common.consent.updated')
                : failure
                  ? t('common.consent.failed')
                  : null
          }
        />
        <div className="actions">
          <Button onClick={() => void go()} disabled={busy || !doc.doc}>
            {button}
          </Button>
        </div>
      </Page>
    </div>
  );
}
