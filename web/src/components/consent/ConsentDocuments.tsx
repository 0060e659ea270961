import { useState, type ReactNode } from 'react';
import { DocumentBox, useDocument } from '@/components/DocumentBox';
import type { ApplyMode } from '@/lib/api/types';
import { loadConsentDocuments, type ConsentItem } from '@/lib/consent/documents';
import { useFlow, nameOf } from '@/stores/flow';
import { useLanguage, useT } from '@/lib/i18n';

/**
 * The consent screens' shared parts: the documents under each lender's name,
 * the one affirmative checkbox, and its state. Used by the soft-pull screen
 * (application) and the hard-pull screen (signing) (docs/behaviour.md, "Consents").
 */

export interface ConsentDocs {
  items: ConsentItem[] | null;
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
  const lenders = useFlow((s) => s.lenders);
  return { items, failed, retry, names: (items ?? []).map((i) => nameOf(lenders, i.target.providerKey)) };
}

/** ConsentDocuments shows each document under its lender's name. */
export function ConsentDocuments({ docs }: { docs: ConsentDocs }) {
  const lenders = useFlow((s) => s.lenders);
  if (!docs.items) return <DocumentBox doc={null} failed={docs.failed} onRetry={docs.retry} />;
  const many = docs.items.length > 1;
  return (
    <>
      {docs.items.map(({ target, doc }) => {
        const name = nameOf(lenders, target.providerKey);
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
  const t = useT();
  return (
    <div className={`field${error ? ' field--error' : ''}`} style={{ marginTop: 16 }}>
      {error ? (
        <span id={`${id}-error`} className="error-text">
          {t('common.consent.checkTheBox')}
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
  // An agreement holds for the language it was given in: switching language
  // shows the document again in the new one, to be agreed to afresh.
  const language = useLanguage();
  const [agreedIn, setAgreedIn] = useState<string | null>(null);
  const [error, setError] = useState(false);
  return {
    agreed: agreedIn === language,
    error,
    set: (v) => {
      setAgreedIn(v ? language : null);
      if (v) setError(false);
    },
    fail: () => setError(true),
  };
}
