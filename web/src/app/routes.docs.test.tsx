import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Document } from '@/lib/api/types';
import { DOC_NAMES, inAppDocRoute, pdfTitle, standaloneDocRoute } from '@/lib/docLinks';
import { forgetDocuments } from '@/features/docs/api';
import { forgetHelp } from '@/features/help/api';
import { flow } from '@/stores/flow';
import { apiPath, json, routes as serve, type Call } from '@/test/fetch';
import { routes } from './routes';
import { liveSession, openApp } from './testing';

/*
 * The documents pages of the route table (docs/behaviour.md, "Routes" and
 * "Help and documents"): public, outside the lender's journey, each opened
 * from a link in copy and left by Back for where the patient was; an
 * unknown name is not found.
 */

const P = 'synchrony_standard';

const docOf = (name: string, content = `<p>The ${name} text.</p>`): Document => ({
  id: `${P}-${name}`,
  version: '4',
  title: `Title of ${name}`,
  contentType: 'text/html',
  content,
  language: 'en',
  sha256: 'sha',
});

function server(extra: Record<string, (Response | Error)[]> = {}): Call[] {
  return serve({
    ...Object.fromEntries(DOC_NAMES.map((d) => [`/documents/${d}`, [json(docOf(d))]])),
    '/help/faqs': [json({ language: 'en', faqs: [] })],
    '/help/glossary': [json({ language: 'en', entries: [] })],
    '/log': [new Response(null, { status: 204 })],
    ...extra,
  });
}

beforeEach(() => {
  flow.reset();
  forgetDocuments();
  forgetHelp();
  vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('the documents addresses', () => {
  it('the table has exactly the documented documents addresses, public and without the stepper', () => {
    const docs = routes[0]!.children!.filter((r) => (r.path ?? '').startsWith('docs'));
    expect(docs.map((r) => r.path).sort()).toEqual(['docs/:doc', 'docs/pdf/:pdfUrl']);
    for (const r of docs) expect(r.handle).toEqual({ public: true, hideStepper: true });
  });

  it.each(DOC_NAMES.map((d) => [d]))('/docs/%s opens from the help page’s list and Back returns there', async (name) => {
    liveSession(P);
    const calls = server();
    const router = openApp('/contexthelp');
    const list = await screen.findByRole('region', { name: 'Documents' });
    const links = within(list).getAllByRole('link');
    expect(links).toHaveLength(DOC_NAMES.length);
    await userEvent.click(links[DOC_NAMES.indexOf(name)]!);

    expect(await screen.findByRole('heading', { level: 1, name: `Title of ${name}` })).toBeTruthy();
    expect(router.state.location.pathname).toBe(`/docs/${name}`);
    expect(screen.getByText(`The ${name} text.`)).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Progress' })).toBeNull();
    // The session's lender is named, and the session sent.
    const call = calls.find((c) => c.path === `/documents/${name}`)!;
    expect(call).toBeTruthy();
    const url = (vi.mocked(fetch).mock.calls.find(([u]) => apiPath(String(u)) === `/documents/${name}`)![0] as string).toString();
    expect(new URL(url, 'http://x').searchParams.get('providerKey')).toBe(P);

    await userEvent.click(screen.getAllByRole('button', { name: 'Back' })[0]!);
    expect(await screen.findByRole('region', { name: 'Documents' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/contexthelp');
  });

  it('without a lender, the help page lists only our own documents', async () => {
    server();
    openApp('/contexthelp');
    const list = await screen.findByRole('region', { name: 'Documents' });
    expect(
      within(list)
        .getAllByRole('link')
        .map((a) => a.getAttribute('href')),
    ).toEqual(['/docs/privacyNotice', '/docs/privacy']);
  });

  it('an unknown document is not found', async () => {
    server();
    const router = openApp('/docs/noSuchDocument');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/404');
  });

  it('a document the server does not have (404) says so, with Back', async () => {
    server({ '/documents/arbitration': [json({ code: 'resource_not_found', message: 'Not found.' }, 404)] });
    openApp('/docs/arbitration');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
    expect(screen.getByText('We could not find this document. Please ask the office manager for a copy.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Back' })).toBeTruthy();
  });

  it('a document that could not be loaded offers to try again; Print prints', async () => {
    server({ '/documents/privacy': [new Error('offline'), json(docOf('privacy'))] });
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    openApp('/docs/privacy');
    expect(await screen.findByText('We couldn’t load this document just now.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Title of privacy' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledOnce();
  });

  it('opened on its own, Back goes to the start screen', async () => {
    server();
    const router = openApp('/docs/privacyNotice');
    expect(await screen.findByRole('heading', { level: 1, name: 'Title of privacyNotice' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/idle'));
  });
});

describe('a documents page opened on its own (a new tab, a link carrying the session)', () => {
  /** The server as it is: a lender's document needs the lender, named by providerKey or by the session. */
  function lenderDocs(): { url: URL; session: string | null }[] {
    const asked: { url: URL; session: string | null }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (u: string, init?: RequestInit) => {
        const url = new URL(u, 'http://x');
        const session = new Headers(init?.headers).get('X-Web-Session-Id');
        if (!url.pathname.includes('/documents/')) return json({}, 204);
        asked.push({ url, session });
        const name = url.pathname.split('/').pop()!;
        if (!url.searchParams.get('providerKey') && session !== 'live-session')
          return json({ code: 'resource_not_found', message: 'Please open this document from your application.' }, 404);
        return json(docOf(name));
      }),
    );
    return asked;
  }

  it('a lender’s document linked from our copy names its lender, so it opens in a new tab', async () => {
    liveSession(P);
    server();
    openApp('/contexthelp');
    const list = await screen.findByRole('region', { name: 'Documents' });
    expect(within(list).getByRole('link', { name: 'Permission to check your credit' }).getAttribute('href')).toBe(
      `/docs/creditReport?providerKey=${P}`,
    );
    expect(within(list).getByRole('link', { name: 'Privacy notice' }).getAttribute('href')).toBe('/docs/privacyNotice');
  });

  it('the address with the lender shows its document in a tab without a session', async () => {
    const asked = lenderDocs();
    openApp(`/docs/creditReport?providerKey=${P}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Title of creditReport' })).toBeTruthy();
    expect(asked[0]!.url.searchParams.get('providerKey')).toBe(P);
  });

  it('a link carrying the session (sid) asks with that session', async () => {
    const asked = lenderDocs();
    openApp('/docs/creditReport?sid=live-session');
    expect(await screen.findByRole('heading', { level: 1, name: 'Title of creditReport' })).toBeTruthy();
    expect(asked[0]!.session).toBe('live-session');
  });

  it('the links inside a lender’s document carry the lender, for a new tab', async () => {
    liveSession(P);
    server({ '/documents/arbitration': [json(docOf('arbitration', '<p>See <a href="/#/docs/creditReport">your credit report</a>.</p>'))] });
    openApp('/docs/arbitration');
    const link = await screen.findByRole('link', { name: 'your credit report' });
    await waitFor(() => expect(link.getAttribute('href')).toBe(`/docs/creditReport?providerKey=${P}`));
  });

  it('the old shape opened on its own keeps the lender and the session it names', () => {
    const o = 'https://app.example';
    expect(standaloneDocRoute(`/#/docs/creditReport?providerKey=${P}&other=1`, o)).toBe(`/docs/creditReport?providerKey=${P}`);
    expect(standaloneDocRoute('/#/docs/privacyNotice?sid=abc', o)).toBe('/docs/privacyNotice?sid=abc');
    expect(standaloneDocRoute('/#/docs/arbitration', o)).toBe('/docs/arbitration');
    expect(standaloneDocRoute('https://lender.example/#/docs/privacy', o)).toBeNull();
  });
});

describe('links inside a lender’s document', () => {
  it('open the documents page in the app (the old /#/docs shape too), and a PDF in the browser’s viewer; Back returns each time', async () => {
    liveSession(P);
    const html =
      '<p>See the <a href="/#/docs/arbitrationProvision">arbitration provision</a> and the <a href="/#/docs/pdf/synchrony_standard-rates.pdf">rates sheet (PDF)</a>.</p>';
    server({ '/documents/arbitration': [json(docOf('arbitration', html))] });
    const head = vi.fn(async () => new Response(null, { status: 200 }));
    const api = vi.mocked(fetch);
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string, init?: RequestInit) => (init?.method === 'HEAD' ? head() : api(url, init))),
    );
    const router = openApp('/docs/arbitration');
    await userEvent.click(await screen.findByRole('link', { name: 'arbitration provision' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Title of arbitrationProvision' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/docs/arbitrationProvision');
    await userEvent.click(screen.getAllByRole('button', { name: 'Back' })[0]!);
    expect(await screen.findByRole('heading', { level: 1, name: 'Title of arbitration' })).toBeTruthy();

    await userEvent.click(screen.getByRole('link', { name: 'rates sheet (PDF)' }));
    // Named by the link's own words.
    expect(await screen.findByRole('heading', { level: 1, name: 'Rates sheet' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/docs/pdf/synchrony_standard-rates.pdf');
    const frame = await screen.findByTitle('Rates sheet (PDF)');
    expect(frame.getAttribute('src')).toBe('/api/v1/documents/pdf/synchrony_standard-rates.pdf?lang=en');
    expect(screen.getByRole('link', { name: 'Open or download the PDF' }).getAttribute('href')).toBe(
      '/api/v1/documents/pdf/synchrony_standard-rates.pdf?lang=en',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Title of arbitration' })).toBeTruthy();
  });

  it('a PDF the server does not have is not found', async () => {
    server();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(null, { status: 404 })),
    );
    openApp('/docs/pdf/nothing.pdf');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
    expect(screen.getByText('We could not find this document. Please ask the office manager for a copy.')).toBeTruthy();
  });

  it('a name that is no file name never reaches the page', async () => {
    const calls = server();
    const router = openApp('/docs/pdf/..%2Fsecret');
    await waitFor(() => expect(router.state.location.pathname).toBe('/404'));
    expect(calls.filter((c) => c.path.startsWith('/documents'))).toEqual([]);
  });

  it('reads every shape of a documents link, and leaves other links to the browser', () => {
    const o = 'https://app.example';
    expect(inAppDocRoute('/#/docs/privacy', o)).toBe('/docs/privacy');
    expect(inAppDocRoute('#/docs/creditReport', o)).toBe('/docs/creditReport');
    expect(inAppDocRoute('/#/docs/privacyNotice?sid=abc', o)).toBe('/docs/privacyNotice');
    expect(inAppDocRoute('https://app.example/#/docs/arbitration', o)).toBe('/docs/arbitration');
    expect(inAppDocRoute('/#/docs/pdf/hfd_standard-rates.pdf', o)).toBe('/docs/pdf/hfd_standard-rates.pdf');
    expect(inAppDocRoute('/docs/pdf/a%20b.pdf', o)).toBe('/docs/pdf/a%20b.pdf');
    expect(inAppDocRoute('https://lender.example/#/docs/privacy', o)).toBeNull();
    expect(inAppDocRoute('https://lender.example/terms', o)).toBeNull();
    expect(inAppDocRoute('mailto:help@lender.example', o)).toBeNull();
    expect(inAppDocRoute('/#/somewhere', o)).toBeNull();
    expect(pdfTitle('rates sheet (PDF).')).toBe('Rates sheet');
    expect(pdfTitle(' (pdf) ')).toBeNull();
  });
});
