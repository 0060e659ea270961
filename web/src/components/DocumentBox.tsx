import { useEffect, useState } from 'react';
import type { Document } from '@/lib/api/types';
import { Skeleton } from './Skeleton';
import { DocumentContent } from './DocLink';

/**
 * DocumentBox shows a disclosure exactly as the server sent it (its sha256 is
 * what the consent names), in a scrollable, keyboard-reachable box. Its
 * links to our documents pages open them in the app (DocumentContent).
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
  if (failed) {
    return (
      <div className="notice notice--warn" role="alert">
        <p>We couldn’t load the terms just now.</p>
        {onRetry ? (
          <button type="button" className="btn btn--secondary" onClick={onRetry}>
            Try again
          </button>
        ) : null}
      </div>
    );
  }
  if (!doc) {
    return (
      <div role="status" aria-live="polite" style={{ minHeight: 200 }}>
        <span className="visually-hidden">Loading the terms…</span>
        <Skeleton height={180} />
      </div>
    );
  }
  return (
    <div className="doc" tabIndex={0} role="region" aria-label={label ?? doc.title}>
      {nested ? <h3 style={{ fontSize: '1.05rem' }}>{doc.title}</h3> : <h2 style={{ fontSize: '1.05rem' }}>{doc.title}</h2>}
      <DocumentContent doc={doc} />
    </div>
  );
}

/** useDocument loads a document (or anything else) through the given loader, with a retry. */
export function useDocument<T = Document>(load: () => Promise<T>, deps: unknown[]): { doc: T | null; failed: boolean; retry: () => void } {
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
  }, [...deps, n]);
  return { doc, failed, retry: () => setN((x) => x + 1) };
}
