import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { configureApi } from '@/lib/api/client';
import type { FaqList, Glossary } from '@/lib/api/types';
import { flow } from '@/stores/flow';
import { apiPath, json } from '@/test/fetch';
import { forgetHelp } from './api';
import { HelpContent } from './HelpContent';

/*
 * Help served by the server (docs/behaviour.md, "Help and documents"): the
 * FAQs and the glossary load with a skeleton and can be tried again; the
 * glossary search waits for a pause in typing, drops a search overtaken by
 * the next, and opens its matches.
 */

const FAQS: FaqList = {
  language: 'en',
  faqs: [
    {
      title: 'Will checking my options hurt my credit score?',
      facts: ['Checking uses a soft credit check.'],
      subFacts: [{ title: 'Standard application', description: 'This one uses a hard credit check.' }],
    },
  ],
};
const GLOSSARY: Glossary = {
  language: 'en',
  entries: [
    { term: 'APR', definition: 'The yearly cost of borrowing.' },
    { term: 'Deferred interest', definition: 'No interest if paid in full in time.', definition1: 'Otherwise interest from the purchase date.' },
  ],
};

interface Seen {
  path: string;
  q: string | null;
  signal?: AbortSignal;
}

/** stub answers the help calls: each path from its handler; every call is kept, with its abort signal. */
function stub(handlers: Record<string, (q: string | null) => Promise<Response> | Response>): Seen[] {
  const seen: Seen[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = apiPath(url);
      const q = new URL(url, 'http://x').searchParams.get('q');
      seen.push({ path, q, signal: init?.signal ?? undefined });
      const h = handlers[path];
      if (!h) return json({ code: 'resource_not_found' }, 404);
      const res = await h(q);
      if (init?.signal?.aborted) throw new DOMException('Aborted', 'AbortError');
      return res;
    }),
  );
  return seen;
}

function show(initialTab: 0 | 1 = 0) {
  const router = createMemoryRouter([{ path: '/', element: <HelpContent headingLevel={1} initialTab={initialTab} /> }]);
  return render(<RouterProvider router={router} />);
}

beforeEach(() => {
  flow.reset();
  forgetHelp();
  configureApi({ getSessionId: () => 's1', navigate: vi.fn(), onValidation: vi.fn(), currentPath: () => '/contexthelp' });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the FAQs', () => {
  it('load from the server behind a skeleton, and are kept for the next opening', async () => {
    const seen = stub({ '/help/faqs': () => json(FAQS) });
    const first = show();
    expect(screen.getByText('Loading the answers…')).toBeTruthy();
    const q = await screen.findByRole('button', { name: 'Will checking my options hurt my credit score?' });
    await userEvent.click(q);
    expect(screen.getByText('Checking uses a soft credit check.')).toBeTruthy();
    expect(screen.getByText('This one uses a hard credit check.')).toBeTruthy();
    first.unmount();
    show();
    expect(await screen.findByRole('button', { name: 'Will checking my options hurt my credit score?' })).toBeTruthy();
    expect(seen.filter((s) => s.path === '/help/faqs')).toHaveLength(1);
  });

  it('that could not be loaded say so, and Try again loads them', async () => {
    let n = 0;
    stub({ '/help/faqs': () => (n++ === 0 ? json({ code: 'internal', message: 'Sorry.' }, 500) : json(FAQS)) });
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    show();
    expect(await screen.findByText('We couldn’t load the answers just now.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: 'Will checking my options hurt my credit score?' })).toBeTruthy();
  });
});

describe('the glossary', () => {
  it('lists every term; a search asks once after a pause in typing and opens its matches; nothing found says so', async () => {
    const seen = stub({
      '/help/glossary': () => json(GLOSSARY),
      '/help/glossary/search': (q) => json({ language: 'en', entries: q === 'apr' ? [GLOSSARY.entries[0]] : [] }),
    });
    show(1);
    expect(await screen.findByRole('heading', { level: 1, name: 'Glossary' })).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Deferred interest' })).toBeTruthy();
    expect(screen.queryByText('The yearly cost of borrowing.')).toBeNull();

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search the glossary' }), 'apr');
    expect(await screen.findByText('1 term matches “apr”.')).toBeTruthy();
    // Its definition shows at once, and the other term is not listed.
    expect(screen.getByText('The yearly cost of borrowing.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Deferred interest' })).toBeNull();
    expect(seen.filter((s) => s.path === '/help/glossary/search').map((s) => s.q)).toEqual(['apr']);

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search the glossary' }), 'zzq');
    expect(await screen.findByText('No terms match “aprzzq”.')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(await screen.findByRole('button', { name: 'Deferred interest' })).toBeTruthy();
    expect(screen.queryByText(/No terms match/)).toBeNull();
  });

  it('a search overtaken by the next is aborted, and its late answer never shows', async () => {
    let releaseFirst: () => void = () => undefined;
    const seen = stub({
      '/help/glossary': () => json(GLOSSARY),
      '/help/glossary/search': (q) =>
        q === 'de'
          ? new Promise<Response>((resolve) => {
              releaseFirst = () => resolve(json({ language: 'en', entries: [GLOSSARY.entries[1]] }));
            })
          : json({ language: 'en', entries: [] }),
    });
    show(1);
    const box = await screen.findByRole('searchbox', { name: 'Search the glossary' });
    await userEvent.type(box, 'de');
    await waitFor(() => expect(seen.filter((s) => s.path === '/help/glossary/search')).toHaveLength(1));
    await userEvent.type(box, 'x');
    expect(await screen.findByText('No terms match “dex”.')).toBeTruthy();
    const [first, second] = seen.filter((s) => s.path === '/help/glossary/search');
    expect(first!.signal?.aborted).toBe(true);
    expect(second!.q).toBe('dex');
    releaseFirst();
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getByText('No terms match “dex”.')).toBeTruthy();
  });

  it('lists the documents to read or print', async () => {
    stub({ '/help/faqs': () => json(FAQS) });
    show();
    const docs = screen.getByRole('region', { name: 'Documents' });
    expect(within(docs).getByRole('link', { name: 'Privacy notice' }).getAttribute('href')).toBe('/docs/privacyNotice');
  });
});
