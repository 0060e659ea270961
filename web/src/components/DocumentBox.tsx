import { useEffect, useState } from 'react';
import type { Document } from '@/lib/api/types';
import { Skeleton } from './Skeleton';
import { DocumentContent } from './DocLink';
import { asLanguage, useLanguage, useT } from '@/lib/i18n';

/**
 * DocumentBox shows a disclosure exactly as the server sent it (its sha256 is
 * what the consent names), in a scrollable, keyboard-reachable box. Its
 * links to our documents pages open them in the app (DocumentContent). A
 * document the lender gives only in another language than the patient's is
 * said to be so before it, and marked with its language for screen readers
 * (docs/languages.md).
 */
export function DocumentBox({
  doc,
  failed,
  onRetry,
  label,
  nested = false,
}: {
  doc: Document | null;
  failed?: boolean;
  onRetry?: () => void;
  /** The region's accessible name when several documents share a screen (defaults to the title). */
  label?: string;
  /** Under a lender's own heading: the title is an h3. */
  nested?: boolean;
}) {
  const t = useT();
  const language = useLanguage();
  if (failed) {
    return (
      <div className="notice notice--warn" role="alert">
        <p>{t('common.document.failed')}</p>
        {onRetry ? (
          <button type="button" className="btn btn--secondary" onClick={onRetry}>
            {t('common.actions.tryAgain')}
          </button>
        ) : null}
      </div>
    );
  }
  if (!doc) {
    return (
      <div role="status" aria-live="polite" style={{ minHeight: 200 }}>
        <span className="visually-hidden">{t('common.document.loading')}</span>
        <Skeleton height={180} />
      </div>
    );
  }
  const docLanguage = asLanguage(doc.language) ?? 'en';
  const foreign = docLanguage !== language;
  return (
    <>
      {foreign ? (
        <p className="notice" role="note">
          {t('common.document.onlyIn', { language: t(`common.languages.${docLanguage}`) })}
        </p>
      ) : null}
      <div className="doc" tabIndex={0} role="region" aria-label={label ?? doc.title} lang={foreign ? docLanguage : undefined}>
        {nested ? <h3 style={{ fontSize: '1.05rem' }}>{doc.title}</h3> : <h2 style={{ fontSize: '1.05rem' }}>{doc.title}</h2>}
        <DocumentContent doc={doc} />
      </div>
    </>
  );
}

/** useDocument loads a document (or anything else) through the given loader, with a retry. */
export function useDocument<T = Document>(load: () => Promise<T>, deps: unknown[]): { doc: T | null; failed: boolean; retry: () => void } {
  // A new language loads the document again: the lender may have it in that language.
  const language = useLanguage();
  const [doc, setDoc] = useState<T | null>(null);
  const [failed, setFailed] = useState(false);
  const [n, setN] = useState(0);
  useEffect(() => {
    let live = true;
    setFailed(false);
    load().then(
      (d) => live && setDoc(d),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, n, language]);
  return { doc, failed, retry: () => setN((x) => x + 1) };
}
