import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { DocumentContent, type DocBackState } from '@/components/DocLink';
import { Loading } from '@/components/Skeleton';
import type { Document } from '@/lib/api/types';
import { useWording } from '@/lib/wording';
import { DOC_TITLES, isDocName, pdfTitle, pdfUrl } from '@/lib/docLinks';
import { loadDocument, pdfExists } from './api';
import './docs.css';

/*
 * The documents pages (docs/behaviour.md, "Help and documents"): public,
 * outside the lender's journey, each with a way back to where the patient
 * was. A link in copy passes that place in the router's state; opened on its
 * own, Back goes back in the browser's history, or to the start screen.
 */

/** useBack answers what Back does on a documents page. */
function useBack(): () => void {
  const navigate = useNavigate();
  const { state } = useLocation();
  const from = (state as Partial<DocBackState> | null)?.from;
  return () => {
    // The browser router numbers its entries: above 0 there is a screen of ours to go back to.
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) void navigate(-1);
    else void navigate(from ?? '/idle', { replace: true });
  };
}

function NoSuchDocument({ onBack }: { onBack: () => void }) {
  const { staff } = useWording();
  return (
    <div className="card">
      <Page title="Page not found">
        <p>We could not find this document. Please ask {staff} for a copy.</p>
        <div className="actions">
          <Button onClick={onBack}>Back</Button>
        </div>
      </Page>
    </div>
  );
}

type Loaded = { kind: 'loading' } | { kind: 'shown'; doc: Document } | { kind: 'missing' } | { kind: 'failed' };

/** DocumentPage: /docs/{doc}, one of our documents, printable. */
export function DocumentPage() {
  const { doc: name } = useParams();
  const back = useBack();
  const known = isDocName(name);
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (!known) return;
    let live = true;
    setLoaded({ kind: 'loading' });
    loadDocument(name).then(
      (doc) => live && setLoaded(doc ? { kind: 'shown', doc } : { kind: 'missing' }),
      () => live && setLoaded({ kind: 'failed' }),
    );
    return () => {
      live = false;
    };
  }, [name, known, attempt]);

  if (!known || loaded.kind === 'missing') return <NoSuchDocument onBack={back} />;
  const doc = loaded.kind === 'shown' ? loaded.doc : null;
  const title = doc?.title || DOC_TITLES[name];
  return (
    <div className="card doc-page">
      <Page title={title}>
        <div className="actions doc-page__tools no-print">
          <Button variant="secondary" onClick={back}>
            Back
          </Button>
          <Button variant="secondary" onClick={() => window.print()} disabled={!doc}>
            Print
          </Button>
        </div>
        {loaded.kind === 'failed' ? (
          <div className="notice notice--warn" role="alert">
            <p>We couldn’t load this document just now.</p>
            <Button variant="secondary" onClick={() => setAttempt((n) => n + 1)}>
              Try again
            </Button>
          </div>
        ) : doc ? (
          <article className="doc-page__text" aria-label={title}>
            <DocumentContent doc={doc} />
            {doc.version ? <p className="muted doc-page__version">Version {doc.version}</p> : null}
          </article>
        ) : (
          <Loading label="Loading the document…" />
        )}
        <div className="actions no-print">
          <Button onClick={back}>Done</Button>
        </div>
      </Page>
    </div>
  );
}

/** PdfPage: /docs/pdf/{pdfUrl}, a PDF in the browser's own viewer, with a link to open or download it. */
export function PdfPage() {
  const { pdfUrl: name = '' } = useParams();
  const { state } = useLocation();
  const back = useBack();
  const url = pdfUrl(name);
  // Named by the words of the link that opened it ("rates sheet (PDF)" → "Rates sheet").
  const title = pdfTitle((state as Partial<DocBackState> | null)?.label) ?? 'Document (PDF)';
  const [found, setFound] = useState<boolean | null>(null);
  useEffect(() => {
    const ctl = new AbortController();
    setFound(null);
    pdfExists(url, ctl.signal).then(setFound, () => undefined);
    return () => ctl.abort();
  }, [url]);

  if (found === false) return <NoSuchDocument onBack={back} />;
  return (
    <div className="card doc-page">
      <Page title={title}>
        <p>This document is a PDF. If it does not show below, open it on its own: your device can then save or print it.</p>
        <div className="actions no-print">
          <a className="btn btn--secondary" href={url} target="_blank" rel="noopener">
            Open or download the PDF
          </a>
        </div>
        {found ? <iframe className="pdf-frame" src={url} title={`${title} (PDF)`} /> : <Loading label="Loading the document…" height={480} />}
        <div className="actions no-print">
          <Button onClick={back}>Back</Button>
        </div>
      </Page>
    </div>
  );
}

/**
 * AccessibilityPage: /accessibility, our accessibility statement
 * (docs/behaviour.md, "Routes"): the standard we hold the journey to, how
 * it is checked, what is known not to meet it yet, and how to tell us.
 */
export function AccessibilityPage() {
  const back = useBack();
  const { staff } = useWording();
  return (
    <div className="card doc-page">
      <Page title="Accessibility">
        <div className="actions doc-page__tools no-print">
          <Button variant="secondary" onClick={back}>
            Back
          </Button>
        </div>
        <article className="doc-page__text">
          <p>
            Everyone should be able to apply for financing for their dental care on their own. We build Chairside to meet the Web Content
            Accessibility Guidelines (WCAG) 2.2 at level AA.
          </p>
          <h2>What you can expect</h2>
          <ul>
            <li>
              Each new screen moves to its heading, so a screen reader announces where you are, and every control can be reached with a keyboard.
            </li>
            <li>You can sign by typing your name instead of drawing a signature.</li>
            <li>Buttons and boxes are large enough to tap, and animation stops when your device asks for less motion.</li>
            <li>Waiting messages, such as while a lender decides, are announced as they change.</li>
          </ul>
          <h2>How we check</h2>
          <p>
            Our automated browser tests check every screen of the journey with the axe accessibility checker, on a tablet and on a phone, and one of
            them applies, signs and finishes using only the keyboard.
          </p>
          <h2>What is not there yet</h2>
          <ul>
            <li>The application is in English only for now. A Spanish version is on its way.</li>
            <li>Documents a lender provides (its terms and disclosures) are shown as the lender wrote them.</li>
          </ul>
          <h2>Tell us about a problem</h2>
          <p>
            If something stops you from applying, please tell {staff}: they can help you finish today and pass the problem on to us, and we will fix
            it.
          </p>
        </article>
        <div className="actions no-print">
          <Button onClick={back}>Done</Button>
        </div>
      </Page>
    </div>
  );
}
