import { currentLanguage } from './i18n';
/*
 * The documents pages (docs/behaviour.md, "Help and documents"): their
 * names, what we call them, and how a link in copy — ours or a lender's —
 * becomes the in-app address of one.
 */

import type { DocumentName } from '@/lib/api/types';
import { t } from './i18n';

/** The documents a link may name (the contract's DocumentName, every one), in the order the help page lists them. */
export const DOC_NAMES = [
  'privacyNotice',
  'privacy',
  'electronicDisclosuresAndSignatures',
  'prequalificationtandc',
  'creditReport',
  'participatingCreditors',
  'arbitration',
  'arbitrationProvision',
] as const satisfies readonly DocumentName[];

export type DocName = (typeof DOC_NAMES)[number];

/** Compiles only while DOC_NAMES lists every document of the contract. */
type Unlisted = Exclude<DocumentName, DocName>;
export const EVERY_DOCUMENT_LISTED: [Unlisted] extends [never] ? true : Unlisted = true;

/** The platform's own documents, shown without a lender; the others are the current lender's. */
export const PLATFORM_DOCS: readonly DocName[] = ['privacyNotice', 'privacy'];

/** docTitle is what we call a document before the server's own title has arrived, and in lists, in the app's language (call it at render). */
export function docTitle(doc: DocName): string {
  return t(`docs.titles.${doc}`);
}

export function isDocName(name: string | undefined): name is DocName {
  return (DOC_NAMES as readonly string[]).includes(name ?? '');
}

/**
 * docRoute is the app address of a document page: /docs/{doc}, and for a
 * lender's document the lender it is of (?providerKey=), so the address
 * opened on its own — a new tab, a link passed on — shows the same
 * document rather than one it cannot name.
 */
export function docRoute(doc: DocName, providerKey?: string | null): string {
  if (!providerKey || PLATFORM_DOCS.includes(doc)) return `/docs/${doc}`;
  return `/docs/${doc}?${new URLSearchParams({ providerKey }).toString()}`;
}

/** The query parameters a documents address keeps when opened on its own: the lender, and the session a link may carry (sid). */
export const DOC_LINK_PARAMS = ['providerKey', 'sid'] as const;

/** pdfRoute is the app address of a PDF's page: /docs/pdf/{name}, the name URL-encoded. */
export function pdfRoute(name: string): string {
  return `/docs/pdf/${encodeURIComponent(name)}`;
}

/** pdfUrl is where the server serves a PDF by name, in the app's language (a plain link carries no Accept-Language of ours). */
export function pdfUrl(name: string): string {
  return `/api/v1/documents/pdf/${encodeURIComponent(name)}?lang=${currentLanguage()}`;
}

/**
 * A PDF's name as the server knows it: letters, digits, dot, dash and
 * underscore, not starting with a dot. Anything else is no document of ours.
 */
export function isPdfName(name: string | undefined): name is string {
  return Boolean(name) && /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/.test(name!);
}

/**
 * inAppDocRoute reads a link's href and answers the app address it stands
 * for when it points at a documents page — the old shapes `/#/docs/{doc}`
 * and `#/docs/{doc}` (and `/#/docs/pdf/{name}`), or `/docs/…` itself, on
 * this site — or null for any other link, which is left to the browser.
 * A query is dropped: inside the app the page has the session and lender
 * it needs (standaloneDocRoute keeps what a page opened on its own needs).
 */
export function inAppDocRoute(href: string | null | undefined, origin = window.location.origin): string | null {
  if (!href) return null;
  let url: URL;
  try {
    url = new URL(href, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin) return null;
  const path = url.hash.startsWith('#/docs/') ? url.hash.slice(1) : url.pathname;
  const m = /^\/docs\/(pdf\/)?([^/?#]+)\/?(?:[?#].*)?$/.exec(path);
  if (!m) return null;
  const name = m[2]!;
  if (m[1]) return `/docs/pdf/${name}`;
  return `/docs/${name}`;
}

/**
 * standaloneDocRoute is inAppDocRoute for an address opened on its own (a
 * new tab, a bookmark, a link carrying the session): it keeps the lender
 * (providerKey) and the session (sid) the link names, which the page then
 * asks with, since this tab holds neither.
 */
export function standaloneDocRoute(href: string, origin = window.location.origin): string | null {
  const route = inAppDocRoute(href, origin);
  if (!route) return null;
  const url = new URL(href, origin);
  const query = url.hash.startsWith('#/docs/') ? new URL(url.hash.slice(1), origin).searchParams : url.searchParams;
  const kept = new URLSearchParams();
  for (const k of DOC_LINK_PARAMS) {
    const v = query.get(k);
    if (v) kept.set(k, v);
  }
  const q = kept.toString();
  return q ? `${route}?${q}` : route;
}

/** withDocLender adds the lender to an in-app documents address (inAppDocRoute's), as docRoute does, so the link opened in a new tab shows the same document. */
export function withDocLender(route: string, providerKey: string | null | undefined): string {
  const m = /^\/docs\/([^/?]+)$/.exec(route);
  return m && isDocName(m[1]) ? docRoute(m[1], providerKey) : route;
}

/**
 * pdfTitle makes a PDF page's heading from the words of the link that
 * opened it ("rates sheet (PDF)" → "Rates sheet"); null when there are none.
 */
export function pdfTitle(label: string | null | undefined): string | null {
  const words = (label ?? '')
    .replace(/\(\s*pdf\s*\)/gi, '')
    .replace(/\s+/g, ' ')
    .replace(/[\s.,;:]+$/, '')
    .trim();
  if (!words) return null;
  return words.charAt(0).toUpperCase() + words.slice(1);
}
