import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHOICE_KEY } from '@/lib/language';
import { api, buildHeaders, configureApi } from './client';
import { readEarlyStart, sendEarlyStart, startPath, startPathOf, takeEarlyStart } from './early';

const KEY = '1000200030004000';

afterEach(() => {
  vi.unstubAllGlobals();
  takeEarlyStart('POST', startPath('entity-keys', KEY), null);
  configureApi({ getSessionId: () => null, navigate: vi.fn(), onValidation: vi.fn(), currentPath: () => '/' });
});

const started = () => new Response(JSON.stringify({ session: { webSessionId: 's1' } }), { status: 200 });

describe('early start', () => {
  it('reads the start call from the routes a link lands on, as the start screen would send it', () => {
    expect(startPathOf(`/start/entity-keys/${KEY}`)).toBe(`/flow/start/entity-keys/${KEY}`);
    expect(startPathOf(`/start/entity-keys/${KEY}/`)).toBe(`/flow/start/entity-keys/${KEY}`);
    expect(startPathOf('/start/tokens/ab%2Fc')).toBe('/flow/start/tokens/ab%2Fc');
    expect(startPathOf('/start/tokens/a%20b')).toBe(startPath('tokens', 'a b'));
    // A key the start screen would refuse, a malformed escape, any other page: no call.
    expect(startPathOf('/start/entity-keys/123')).toBeNull();
    expect(startPathOf('/start/tokens/%E0%A4%A')).toBeNull();
    expect(startPathOf('/start')).toBeNull();
    expect(startPathOf('/idle')).toBeNull();
    expect(startPathOf(`/start/entity-keys/${KEY}/more`)).toBeNull();
  });

  it('sends the call the app would send, and the app takes its answer instead of sending it again', async () => {
    const fetchMock = vi.fn(async () => started());
    vi.stubGlobal('fetch', fetchMock);
    sendEarlyStart(`/start/entity-keys/${KEY}`);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe(`/api/v1/flow/start/entity-keys/${KEY}`);
    // The patient has chosen no language: an office with its own answers the form in it.
    expect(init).toMatchObject({ method: 'POST', body: JSON.stringify({ languageChosen: false }), credentials: 'same-origin' });
    // The app's headers but the time zone: the start counts no days, and the zone's first read is slow.
    const { 'X-Time-Zone': zone, ...rest } = buildHeaders(null, true);
    expect(zone).toBeTruthy();
    expect(init.headers).toEqual(rest);

    const res = await api.post<{ session: { webSessionId: string } }>(startPath('entity-keys', KEY), {});
    expect(res.session.webSessionId).toBe('s1');
    expect(fetchMock).toHaveBeenCalledTimes(1);

    // Once: a second start (the patient starts again) is a call of its own.
    await api.post(startPath('entity-keys', KEY), {});
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('leaves other calls alone, and a call made inside a session', async () => {
    const fetchMock = vi.fn(async () => started());
    vi.stubGlobal('fetch', fetchMock);
    sendEarlyStart(`/start/entity-keys/${KEY}`);
    await api.post('/flow/start/entity-keys/1000200030009999', {});
    await api.get(startPath('entity-keys', KEY));
    expect(fetchMock).toHaveBeenCalledTimes(3);
    configureApi({ getSessionId: () => 'other', navigate: vi.fn(), onValidation: vi.fn(), currentPath: () => '/' });
    await api.post(startPath('entity-keys', KEY), {});
    expect(fetchMock).toHaveBeenCalledTimes(4);
  });

  it('says when the language it asks in is the patient’s own choice', () => {
    const fetchMock = vi.fn(async () => started());
    vi.stubGlobal('fetch', fetchMock);
    vi.stubGlobal('sessionStorage', { getItem: (key: string) => (key === CHOICE_KEY ? 'es' : null) });
    sendEarlyStart(`/start/tokens/t1`);
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.body).toBe(JSON.stringify({ languageChosen: true }));
    expect((init.headers as Record<string, string>)['Accept-Language']).toBe('es');
    takeEarlyStart('POST', startPath('tokens', 't1'), null);
  });

  it('sends nothing from a page that starts nothing', () => {
    const fetchMock = vi.fn(async () => started());
    vi.stubGlobal('fetch', fetchMock);
    expect(sendEarlyStart('/idle')).toBeNull();
    expect(sendEarlyStart('/start/entity-keys/12')).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('lets the page read the answer before the app, and the app still takes it whole', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => started()),
    );
    const early = sendEarlyStart(`/start/entity-keys/${KEY}`);
    expect(early?.asked).toBe('en');
    const read = readEarlyStart(early!);
    const res = await api.post<{ session: { webSessionId: string } }>(startPath('entity-keys', KEY), {});
    expect(res.session.webSessionId).toBe('s1');
    expect((await read)?.session.webSessionId).toBe('s1');
  });

  it('reads nothing from a start that failed', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ code: 'resource_not_found' }), { status: 404 })),
    );
    expect(await readEarlyStart(sendEarlyStart(`/start/entity-keys/${KEY}`)!)).toBeNull();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    expect(await readEarlyStart(sendEarlyStart(`/start/entity-keys/${KEY}`)!)).toBeNull();
  });

  it('hands a failed early call to the app as the same network failure it would have met', async () => {
    const navigate = vi.fn();
    configureApi({ getSessionId: () => null, navigate, onValidation: vi.fn(), currentPath: () => '/start' });
    const fetchMock = vi.fn(async () => Promise.reject(new TypeError('Failed to fetch')));
    vi.stubGlobal('fetch', fetchMock);
    sendEarlyStart(`/start/tokens/t1`);
    await expect(api.post(startPath('tokens', 't1'), {})).rejects.toMatchObject({ code: 'network' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(navigate).toHaveBeenCalled();
  });
});
