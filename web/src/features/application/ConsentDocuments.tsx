import { useState, type ReactNode } from 'react';
import { DocumentBox, useDocument } from '@/components/DocumentBox';
import { agree, loadConsentDocuments } from '@/flow/commands';
import type { ApplyMode, Document } from '@/lib/api/types';
import type { ConsentTarget } from '@/lib/consentChain';
import { joinNames } from '@/lib/consentChain';
import { providerName } from '@/stores/flow';

export interface ConsentDocs {
  items: { target: ConsentTarget; doc: Document }[] | null;
  failed: boolean;
  retry: () => void;
  /** The lenders' names, in waterfall order. */
  names: string[];
}

/**
 * useConsentDocuments loads the documents one consent screen shows: the
 * current lender's and those of every lender the app may submit to on its
 * own after it (GET /locations/current, autoSubmit chain).
 */
export function useConsentDocuments(providerKey: string, mode: ApplyMode): ConsentDocs {
  const { doc: items, failed, retry } = useDocument(() => loadConsentDocuments(providerKey, mode), [providerKey, mode]);
  return { items, failed, retry, names: (items ?? []).map((i) => providerName(i.target.providerKey)) };
}

/** agreeToAll records one consent per document shown, each naming exactly that document. */
export function agreeToAll(items: { target: ConsentTarget; doc: Document }[]): void {
  for (const { target, doc } of items) agree(target.providerKey, target.kind, doc);
}

/** ConsentDocuments shows each document under its lender's name. */
export function ConsentDocuments({ docs }: { docs: ConsentDocs }) {
  if (!docs.items) return <DocumentBox doc={null} failed={docs.failed} onRetry={docs.retry} />;
  const many = docs.items.length > 1;
  return (
    <>
      {docs.items.map(({ target, doc }) => {
        const name = providerName(target.providerKey);
        return (
          <section key={`${target.providerKey}:${target.kind}`} className="consent-doc">
            {many ? <h2 className="consent-doc__lender">{name}</h2> : null}
            <DocumentBox doc={doc} label={`${name}: ${doc.title}`} nested={many} />
          </section>
        );
      })}
    </>
  );
}

/** AgreeBox is the one affirmative checkbox of a consent screen (never pre-ticked). */
export function AgreeBox({
  id,
  label,
  error,
  onChange,
  checked,
}: {
  id: string;
  label: ReactNode;
  error: boolean;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <div className={`field${error ? ' field--error' : ''}`} style={{ marginTop: 16 }}>
      {error ? (
        <span id={`${id}-error`} className="error-text">
          Please check the box to continue
        </span>
      ) : null}
      <label className="check" htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          checked={checked}
          aria-describedby={error ? `${id}-error` : undefined}
          aria-invalid={error || undefined}
          onChange={(e) => onChange(e.target.checked)}
        />
        <span>{label}</span>
      </label>
    </div>
  );
}

export function useAgree(): { agreed: boolean; error: boolean; set: (v: boolean) => void; fail: () => void } {
  const [agreed, setAgreed] = useState(false);
  const [error, setError] = useState(false);
  return {
    agreed,
    error,
    set: (v) => {
      setAgreed(v);
      if (v) setError(false);
    },
    fail: () => setError(true),
  };
}

export { joinNames };
