import * as Tabs from '@radix-ui/react-tabs';
import * as Accordion from '@radix-ui/react-accordion';
import { useEffect, useState, type ReactNode } from 'react';
import { Button } from '@/components/Button';
import { DocLink } from '@/components/DocLink';
import { useDocument } from '@/components/DocumentBox';
import { Skeleton } from '@/components/Skeleton';
import type { GlossaryEntry } from '@/lib/api/types';
import { DOC_NAMES, docTitle, PLATFORM_DOCS } from '@/lib/docLinks';
import { Trans, useT } from '@/lib/i18n';
import { useFlow } from '@/stores/flow';
import { loadFaqs, loadGlossary, searchGlossary } from './api';
import './help.css';

/** How long the glossary search waits after the last key before asking the server. */
export const SEARCH_DELAY_MS = 250;

type ItemHeading = 'h2' | 'h3' | 'h4';

function Loading({ label }: { label: string }) {
  return (
    <div role="status" aria-live="polite" style={{ minHeight: 300 }}>
      <span className="visually-hidden">{label}</span>
      <Skeleton height={48} count={5} />
    </div>
  );
}

function LoadFailed({ message, onRetry }: { message: string; onRetry: () => void }) {
  const t = useT();
  return (
    <div className="notice notice--warn" role="alert">
      <p>{message}</p>
      <Button variant="secondary" onClick={onRetry}>
        {t('help.tryAgain')}
      </Button>
    </div>
  );
}

/** HelpItem is one question or term: its title a heading that opens it, then what it says. */
function HelpItem({ value, title, Item, children }: { value: string; title: string; Item: ItemHeading; children: ReactNode }) {
  return (
    <Accordion.Item value={value} className="acc-item">
      <Accordion.Header asChild>
        <Item style={{ margin: 0, fontSize: 'inherit' }}>
          <Accordion.Trigger className="acc-trigger">{title}</Accordion.Trigger>
        </Item>
      </Accordion.Header>
      <Accordion.Content className="acc-content">{children}</Accordion.Content>
    </Accordion.Item>
  );
}

/** FaqsTab: the FAQ list from the server, each question opening to its facts and sub-facts. */
function FaqsTab({ Item }: { Item: ItemHeading }) {
  const t = useT();
  const { doc, failed, retry } = useDocument(loadFaqs, []);
  if (failed) return <LoadFailed message={t('help.answersFailed')} onRetry={retry} />;
  if (!doc) return <Loading label={t('help.loadingAnswers')} />;
  return (
    <Accordion.Root type="multiple">
      {doc.faqs.map((f, i) => (
        <HelpItem key={`${i}:${f.title}`} value={`faq-${i}`} title={f.title} Item={Item}>
          <ul>
            {f.facts.map((fact) => (
              <li key={fact}>{fact}</li>
            ))}
          </ul>
          {f.subFacts?.map((s) => (
            <p key={s.title}>
              <strong>{s.title}:</strong> {s.description}
            </p>
          ))}
        </HelpItem>
      ))}
    </Accordion.Root>
  );
}

function Entries({ entries, Item, open, id }: { entries: GlossaryEntry[]; Item: ItemHeading; open: boolean; id: string }) {
  // A search's matches show their definitions at once; the whole list opens one term at a time.
  return (
    <Accordion.Root type="multiple" key={id} defaultValue={open ? entries.map((_, i) => `g-${i}`) : []}>
      {entries.map((g, i) => (
        <HelpItem key={`${i}:${g.term}`} value={`g-${i}`} title={g.term} Item={Item}>
          <p>{g.definition}</p>
          {g.definition1 ? <p>{g.definition1}</p> : null}
        </HelpItem>
      ))}
    </Accordion.Root>
  );
}

interface Found {
  q: string;
  entries: GlossaryEntry[];
}

/**
 * GlossaryTab: every term, and a search box that asks the server (after a
 * short pause in typing; a search overtaken by the next is aborted). The
 * matches show with their definitions open.
 */
function GlossaryTab({ Item }: { Item: ItemHeading }) {
  const t = useT();
  const all = useDocument(loadGlossary, []);
  const [typed, setTyped] = useState('');
  const [found, setFound] = useState<Found | null>(null);
  const [searchFailed, setSearchFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const q = typed.trim();

  useEffect(() => {
    setSearchFailed(false);
    if (!q) {
      setFound(null);
      return;
    }
    const ctl = new AbortController();
    const timer = setTimeout(() => {
      searchGlossary(q, ctl.signal).then(
        (res) => setFound({ q, entries: res.entries ?? [] }),
        () => {
          if (!ctl.signal.aborted) setSearchFailed(true);
        },
      );
    }, SEARCH_DELAY_MS);
    return () => {
      clearTimeout(timer);
      ctl.abort();
    };
  }, [q, attempt]);

  const current = q && found?.q === q ? found : null;
  const searching = Boolean(q) && !current && !searchFailed;
  let status = '';
  if (current) status = current.entries.length ? t('help.matches', { count: current.entries.length, q }) : '';
  else if (searching) status = t('help.searching');

  return (
    <>
      <div className="field glossary-search" role="search">
        <label className="label" htmlFor="glossary-search">
          {t('help.search')}
        </label>
        <span className="hint" id="glossary-search-hint">
          {t('help.searchHint')}
        </span>
        <div className="input-row">
          <input
            id="glossary-search"
            className="input"
            type="search"
            value={typed}
            autoComplete="off"
            enterKeyHint="search"
            maxLength={64}
            aria-describedby="glossary-search-hint"
            onChange={(e) => setTyped(e.target.value)}
          />
          {typed ? (
            <Button variant="secondary" onClick={() => setTyped('')}>
              {t('help.clear')}
            </Button>
          ) : null}
        </div>
      </div>
      <p className="muted glossary-status" role="status" aria-live="polite">
        {status}
      </p>
      {q ? (
        searchFailed ? (
          <LoadFailed message={t('help.matchesFailed')} onRetry={() => setAttempt((n) => n + 1)} />
        ) : current && current.entries.length === 0 ? (
          <div className="notice">
            <p className="notice__text">
              <Trans i18nKey="help.noMatch" values={{ q }} components={{ strong: <strong /> }} />
            </p>
          </div>
        ) : current ? (
          <Entries entries={current.entries} Item={Item} open id={`q:${current.q}`} />
        ) : (
          <Skeleton height={48} count={2} />
        )
      ) : all.failed ? (
        <LoadFailed message={t('help.glossaryFailed')} onRetry={all.retry} />
      ) : all.doc ? (
        <Entries entries={all.doc.entries} Item={Item} open={false} id="all" />
      ) : (
        <Loading label={t('help.loadingGlossary')} />
      )}
    </>
  );
}

/**
 * DocumentsList links the documents pages, to read or print; opening one
 * runs onOpen (the drawer closes). The lender's documents need a lender, so
 * before one is chosen only our own are listed.
 */
function DocumentsList({ Heading, onOpen }: { Heading: ItemHeading; onOpen?: () => void }) {
  const t = useT();
  const withLender = useFlow((s) => Boolean(s.session && s.providerKey));
  const docs = withLender ? DOC_NAMES : DOC_NAMES.filter((d) => PLATFORM_DOCS.includes(d));
  return (
    <section className="help-docs" aria-labelledby="help-docs-title">
      <Heading id="help-docs-title">{t('help.documents')}</Heading>
      <p className="muted">{t('help.documentsIntro')}</p>
      <ul className="help-docs__list">
        {docs.map((d) => (
          <li key={d}>
            <DocLink doc={d} onOpen={onOpen}>
              {docTitle(d)}
            </DocLink>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** HelpContent: tab 0 FAQs, tab 1 Glossary (both from the server), then the documents. */
export function HelpContent({
  initialTab = 0,
  headingLevel = 2,
  onOpenDocument,
}: {
  initialTab?: 0 | 1;
  headingLevel?: 1 | 2 | 3;
  /** Runs when the patient opens a document from the list (the drawer closes). */
  onOpenDocument?: () => void;
}) {
  const t = useT();
  const [tab, setTab] = useState(String(initialTab));
  const H = headingLevel === 1 ? 'h1' : headingLevel === 2 ? 'h2' : 'h3';
  const Item: ItemHeading = headingLevel === 3 ? 'h4' : 'h3';
  const Section: ItemHeading = headingLevel === 1 ? 'h2' : headingLevel === 2 ? 'h2' : 'h3';
  return (
    <>
      <H>{tab === '0' ? t('help.faqs') : t('help.glossary')}</H>
      <Tabs.Root value={tab} onValueChange={setTab}>
        <Tabs.List className="tabs-list" aria-label={t('help.topics')}>
          <Tabs.Trigger className="tab" value="0">
            {t('help.faqs')}
          </Tabs.Trigger>
          <Tabs.Trigger className="tab" value="1">
            {t('help.glossary')}
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="0">
          <FaqsTab Item={Item} />
        </Tabs.Content>
        <Tabs.Content value="1">
          <GlossaryTab Item={Item} />
        </Tabs.Content>
      </Tabs.Root>
      <DocumentsList Heading={Section} onOpen={onOpenDocument} />
    </>
  );
}
