import { api } from '@/lib/api/client';
import type { FaqList, Glossary } from '@/lib/api/types';
import { currentLanguage } from '@/lib/i18n';
import { once } from '@/lib/once';
import { flow } from '@/stores/flow';

/*
 * Help served by the server (docs/behaviour.md, "Help and documents"): the
 * FAQs and the glossary, as data per language and per office, so an office
 * can correct an answer without a release. Public; the session, when there
 * is one, names the office. The browser's HTTP cache keeps the answers for
 * a minute (the server's Cache-Control and ETag; plain fetch), and this
 * page keeps its own copy per session for the help drawer opened again.
 */

const kept = new Map<string, unknown>();

/** The copy kept is per session and language: a patient who switches language gets the help in the new one. */
function sessionPart(): string {
  return `${flow.get().session?.webSessionId ?? ''}:${currentLanguage()}`;
}

function loadKept<T>(name: string, path: string): Promise<T> {
  const key = `${sessionPart()}:${name}`;
  if (kept.has(key)) return Promise.resolve(kept.get(key) as T);
  return once(`help:${key}`, async () => {
    const res = await api.get<T>(path, { noErrorHandling: true });
    kept.set(key, res);
    return res;
  });
}

/** loadFaqs answers the FAQ list (GET /help/faqs). */
export function loadFaqs(): Promise<FaqList> {
  return loadKept<FaqList>('faqs', '/help/faqs');
}

/** loadGlossary answers the whole glossary (GET /help/glossary). */
export function loadGlossary(): Promise<Glossary> {
  return loadKept<Glossary>('glossary', '/help/glossary');
}

/** searchGlossary answers the glossary entries matching q (GET /help/glossary/search); the signal aborts a search overtaken by the next. */
export function searchGlossary(q: string, signal?: AbortSignal): Promise<Glossary> {
  return api.get<Glossary>('/help/glossary/search', { query: { q }, noErrorHandling: true, signal });
}

/** forgetHelp empties this page's copies (tests). */
export function forgetHelp(): void {
  kept.clear();
}
