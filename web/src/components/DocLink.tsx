import { useEffect, useRef, type MouseEvent, type ReactNode } from 'react';
import { Link, useInRouterContext, useLocation, useNavigate } from 'react-router';
import type { Document } from '@/lib/api/types';
import { docRoute, inAppDocRoute, withDocLender, type DocName } from '@/lib/docLinks';
import { useFlow } from '@/stores/flow';

/** What a documents page is given: where the patient was (the way back), and the words of the link that opened it. */
export interface DocBackState {
  from: string;
  label?: string;
}

/** useHere answers the current in-app address (path and query), the way back from a documents page. */
function useHere(): string {
  const { pathname, search } = useLocation();
  return pathname + search;
}

/**
 * DocLink links to one of our documents pages from copy: the page opens in
 * the app, and its Back button returns here. `onOpen` runs first (a drawer
 * closes itself). Inside a translated sentence it is given without children
 * (`<Trans components={{ doc: <DocLink … /> }} />`): Trans fills in the words.
 */
export function DocLink({ doc, to, children, onOpen }: { doc?: DocName; to?: string; children?: ReactNode; onOpen?: () => void }) {
  const here = useHere();
  // A lender's document names its lender in the address, so it opens in a new tab too.
  const lender = useFlow((s) => s.providerKey);
  const state: DocBackState = { from: here };
  return (
    <Link to={to ?? docRoute(doc!, lender)} state={state} onClick={onOpen}>
      {children}
    </Link>
  );
}

/**
 * useDocLinkClicks answers a click handler for a block of HTML we did not
 * write (a lender's document): a plain click on a link to a documents page
 * (`/#/docs/{doc}` and its other shapes) opens that page in the app instead
 * of leaving it. Other links, and clicks with a modifier key (a new tab),
 * are left to the browser.
 */
export function useDocLinkClicks(onOpen?: () => void): (e: MouseEvent<HTMLElement>) => void {
  const navigate = useNavigate();
  const here = useHere();
  return (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = (e.target as Element | null)?.closest?.('a');
    if (!a || !e.currentTarget.contains(a)) return;
    const target = a.getAttribute('target');
    if (target && target !== '_self') return;
    const to = inAppDocRoute(a.getAttribute('href'));
    if (!to) return;
    e.preventDefault();
    onOpen?.();
    const state: DocBackState = { from: here, label: a.textContent?.trim() || undefined };
    void navigate(to, { state });
  };
}

/**
 * useLenderInDocLinks writes the app address, with the current lender, into
 * the documents links of a block of HTML we did not write, so one opened in
 * a new tab (which holds no session) shows that lender's document.
 */
function useLenderInDocLinks(html: string) {
  const box = useRef<HTMLDivElement>(null);
  const lender = useFlow((s) => s.providerKey);
  useEffect(() => {
    for (const a of box.current?.querySelectorAll('a[href]') ?? []) {
      const to = inAppDocRoute(a.getAttribute('href'));
      if (to) a.setAttribute('href', withDocLender(to, lender));
    }
  }, [html, lender]);
  return box;
}

function LinkedHtml({ html }: { html: string }) {
  const onClick = useDocLinkClicks();
  const box = useLenderInDocLinks(html);
  // A click on a link inside the document is caught here; Enter on a focused link is a click too.
  return <div ref={box} onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />;
}

/**
 * DocumentContent shows a document's text exactly as the server sent it
 * (HTML or plain text). Inside the app, its links to documents pages open
 * them in the app (useDocLinkClicks).
 */
export function DocumentContent({ doc }: { doc: Pick<Document, 'content' | 'contentType'> }) {
  const routed = useInRouterContext();
  if (doc.contentType !== 'text/html') return <div style={{ whiteSpace: 'pre-wrap' }}>{doc.content}</div>;
  return routed ? <LinkedHtml html={doc.content} /> : <div dangerouslySetInnerHTML={{ __html: doc.content }} />;
}
