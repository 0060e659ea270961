import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { DocumentContent, type DocBackState } from '@/components/DocLink';
import { Loading } from '@/components/Skeleton';
import type { Document } from '@/lib/api/types';
import { useT } from '@/lib/i18n';
import { useWording } from '@/lib/wording';
import { docTitle, isDocName, pdfTitle, pdfUrl } from '@/lib/docLinks';
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
  const t = useT();
  const { staff } = useWording();
  return (
    <div className="card">
      <Page title={t('docs.notFoundTitle')}>
        <p>{t('docs.notFound', { staff })}</p>
        <div className="actions">
          <Button onClick={onBack}>{t('docs.back')}</Button>
        </div>
      </Page>
    </div>
  );
}

type Loaded = { kind: 'loading' } | { kind: 'shown'; doc: Document } | { kind: 'missing' } | { kind: 'failed' };

/** DocumentPage: /docs/{doc}, one of our documents, printable. */
export function DocumentPage() {
  const t = useT();
  const { doc: name } = useParams();
  const [query] = useSearchParams();
  // Opened on its own (a new tab, a link carrying the session), the address names the lender and the session to ask with.
  const providerKey = query.get('providerKey');
  const sid = query.get('sid');
  const back = useBack();
  const known = isDocName(name);
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (!known) return;
    let live = true;
    setLoaded({ kind: 'loading' });
    loadDocument(name, { providerKey, sid }).then(
      (doc) => live && setLoaded(doc ? { kind: 'shown', doc } : { kind: 'missing' }),
      () => live && setLoaded({ kind: 'failed' }),
    );
    return () => {
      live = false;
    };
  }, [name, known, attempt, providerKey, sid]);

  if (!known || loaded.kind === 'missing') return <NoSuchDocument onBack={back} />;
  const doc = loaded.kind === 'shown' ? loaded.doc : null;
  const title = doc?.title || docTitle(name);
  return (
    <div className="card doc-page">
      <Page title={title}>
        <div className="actions doc-page__tools no-print">
          <Button variant="secondary" onClick={back}>
            {t('docs.back')}
          </Button>
          <Button variant="secondary" onClick={() => window.print()} disabled={!doc}>
            {t('docs.print')}
          </Button>
        </div>
        {loaded.kind === 'failed' ? (
          <div className="notice notice--warn" role="alert">
            <p>{t('docs.loadFailed')}</p>
            <Button variant="secondary" onClick={() => setAttempt((n) => n + 1)}>
              {t('docs.tryAgain')}
            </Button>
          </div>
        ) : doc ? (
          <article className="doc-page__text" aria-label={title}>
            <DocumentContent doc={doc} />
            {doc.version ? <p className="muted doc-page__version">{t('docs.version', { version: doc.version })}</p> : null}
          </article>
        ) : (
          <Loading label={t('docs.loading')} />
        )}
        <div className="actions no-print">
          <Button onClick={back}>{t('docs.done')}</Button>
        </div>
      </Page>
    </div>
  );
}

/** PdfPage: /docs/pdf/{pdfUrl}, a PDF in the browser's own viewer, with a link to open or download it. */
export function PdfPage() {
  const t = useT();
  const { pdfUrl: name = '' } = useParams();
  const { state } = useLocation();
  const back = useBack();
  const url = pdfUrl(name);
  // Named by the words of the link that opened it ("rates sheet (PDF)" → "Rates sheet").
  const title = pdfTitle((state as Partial<DocBackState> | null)?.label) ?? t('docs.pdf.title');
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
        <p>{t('docs.pdf.intro')}</p>
        <div className="actions no-print">
          <a className="btn btn--secondary" href={url} target="_blank" rel="noopener">
            {t('docs.pdf.open')}
          </a>
        </div>
        {found ? (
          <iframe className="pdf-frame" src={url} title={t('docs.pdf.frame', { title })} />
        ) : (
          <Loading label={t('docs.loading')} height={480} />
        )}
        <div className="actions no-print">
          <Button onClick={back}>{t('docs.back')}</Button>
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
  const t = useT();
  const back = useBack();
  const { staff } = useWording();
  return (
    <div className="card doc-page">
      <Page title={t('docs.accessibility.title')}>
        <div className="actions doc-page__tools no-print">
          <Button variant="secondary" onClick={back}>
            {t('docs.back')}
          </Button>
        </div>
        <article className="doc-page__text">
          <p>{t('docs.accessibility.intro')}</p>
          <h2>{t('docs.accessibility.expectTitle')}</h2>
          <ul>
            <li>{t('docs.accessibility.expectHeadings')}</li>
            <li>{t('docs.accessibility.expectTyped')}</li>
            <li>{t('docs.accessibility.expectTargets')}</li>
            <li>{t('docs.accessibility.expectAnnounced')}</li>
            <li>{t('docs.accessibility.expectLanguages')}</li>
          </ul>
          <h2>{t('docs.accessibility.checkTitle')}</h2>
          <p>{t('docs.accessibility.check')}</p>
          <h2>{t('docs.accessibility.notYetTitle')}</h2>
          <ul>
            <li>{t('docs.accessibility.notYetLenderDocs')}</li>
          </ul>
          <h2>{t('docs.accessibility.problemTitle')}</h2>
          <p>{t('docs.accessibility.problem', { staff })}</p>
        </article>
        <div className="actions no-print">
          <Button onClick={back}>{t('docs.done')}</Button>
        </div>
      </Page>
    </div>
  );
}
