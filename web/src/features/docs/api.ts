import { api } from '@/lib/api/client';
import type { Document } from '@/lib/api/types';
import type { DocName } from '@/lib/docLinks';
import { once } from '@/lib/once';
import { flow } from '@/stores/flow';

/*
 * The documents pages' calls (docs/behaviour.md, "Help and documents"):
 * public, with the session when there is one, and the current lender, so
 * the server answers that lender's and that office's version.
 */

/** Documents already shown in this page's life, by session, lender and name. */
const shown = new Map<string, Document>();

/** What the address of a page opened on its own names (lib/docLinks.ts, DOC_LINK_PARAMS): the lender, the session. */
export interface DocLinkContext {
  providerKey?: string | null;
  sid?: string | null;
}

/**
 * loadDocument answers one of our documents; null when the server has no
 * such document (404). The session and lender of this tab come first; a
 * tab that holds none (a page opened on its own) asks with those its
 * address names.
 */
export async function loadDocument(doc: DocName, link: DocLinkContext = {}): Promise<Document | null> {
  const s = flow.get();
  const providerKey = s.providerKey ?? link.providerKey ?? undefined;
  const sessionId = s.session?.webSessionId ?? link.sid ?? undefined;
  const key = `${sessionId ?? ''}:${providerKey ?? ''}:${doc}`;
  const kept = shown.get(key);
  if (kept) return kept;
  return once(`document:${key}`, async () => {
    const d = await api.get<Document | null>(`/documents/${encodeURIComponent(doc)}`, {
      query: { providerKey },
      noErrorHandling: true,
      allowNotFound: true,
      sessionId,
    });
    if (d) shown.set(key, d);
    return d;
  });
}

/** pdfExists asks the server whether it has a PDF by that name (HEAD): false for 404, true otherwise (the viewer says the rest). */
export async function pdfExists(url: string, signal?: AbortSignal): Promise<boolean> {
  try {
    const res = await fetch(url, { method: 'HEAD', credentials: 'same-origin', signal });
    return res.status !== 404;
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    return true;
  }
}

/** forgetDocuments empties the in-memory copies (tests). */
export function forgetDocuments(): void {
  shown.clear();
}
