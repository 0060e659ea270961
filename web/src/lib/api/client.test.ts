import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureClientLog } from '@/lib/clientLog';
import { api, ApiError, buildHeaders, configureApi, errorTarget, invalidApplicants, RETRY, retryAfterMs } from './client';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  configureClientLog({ getSessionId: () => null, currentRoute: () => '/' });
});

describe('api client', () => {
  it('sends the session id and the time zone', () => {
    const h = buildHeaders('abc', true);
    expect(h['X-Web-Session-Id']).toBe('abc');
    expect(h['X-Time-Zone']).toBeTruthy();
    expect(buildHeaders(null, false)['X-Web-Session-Id']).toBeUndefined();
  });

  it('routes errors', () => {
    const inv = new ApiError(401, { code: 'session_invalid' });
    expect(errorTarget(inv, {}, '/x')).toBe('/session/invalid');
    const v = new ApiError(400, { code: 'validation_error', fieldErrors: [{ field: 'joint.ssn', message: 'bad' }] });
    expect(errorTarget(v, { apply: { providerKey: 'syn', resubmitRoute: '/r' } }, '/x')).toBe('/providers/syn/correctErrors?applicantType=joint');
    expect(errorTarget(v, {}, '/x')).toBe('/error?code=validation_error');
    const i = new ApiError(500, { code: 'internal', requestId: 'r1' });
    expect(errorTarget(i, {}, '/x')).toBe('/error?code=internal&requestId=r1');
    // The office changed the amount: back to that lender's plans, wherever the patient was.
    const a = new ApiError(409, { code: 'amount_changed' });
    expect(errorTarget(a, {}, '/providers/synchrony_standard/terms')).toBe('/providers/synchrony_standard/amountChanged');
    expect(errorTarget(a, {}, '/finish')).toBe('/error?code=amount_changed');
    expect(
      invalidApplicants([
        { field: 'joint.a', message: '' },
        { field: 'primary.b', message: '' },
      ]),
    ).toEqual(['primary', 'joint']);
  });

  it('handles failures in one place and rethrows', async () => {
    const navigate = vi.fn();
    const onValidation = vi.fn();
    configureApi({ getSessionId: () => 's1', navigate, onValidation, currentPath: () => '/p' });
    const fetchMock = vi.fn(
      async () =>
        new Response(JSON.stringify({ code: 'validation_error', message: 'no', fieldErrors: [{ field: 'primary.ssn', message: 'Invalid Field' }] }), {
          status: 400,
        }),
    );
    vi.stubGlobal('fetch', fetchMock);
    await expect(api.post('/providers/syn/prequalify', {}, { apply: { providerKey: 'syn', resubmitRoute: '/r' } })).rejects.toBeInstanceOf(ApiError);
    expect(onValidation).toHaveBeenCalledWith(expect.objectContaining({ invalidApplicants: ['primary'], resubmitRoute: '/r' }));
    expect(navigate).toHaveBeenCalledWith('/providers/syn/correctErrors?applicantType=primary', true);
    const init = (fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1];
    expect((init.headers as Record<string, string>)['X-Web-Session-Id']).toBe('s1');
  });

  it('turns a network failure into the error page, never a blank screen', async () => {
    const navigate = vi.fn();
    configureApi({ getSessionId: () => null, navigate, onValidation: vi.fn(), currentPath: () => '/' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(api.get('/x')).rejects.toMatchObject({ code: 'network' });
    expect(navigate).toHaveBeenCalledWith('/error?code=network', true);
  });

  it('a call that fails after the app is wired again answers to the app that made it', async () => {
    const first = vi.fn();
    const second = vi.fn();
    configureApi({ getSessionId: () => 's1', navigate: first, onValidation: vi.fn(), currentPath: () => '/' });
    let drop!: (e: Error) => void;
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((_, reject) => (drop = reject))),
    );
    const call = api.get('/x');
    await vi.waitFor(() => expect(drop).toBeTypeOf('function'));
    configureApi({ getSessionId: () => 's2', navigate: second, onValidation: vi.fn(), currentPath: () => '/' });
    drop(new TypeError('Failed to fetch'));
    await expect(call).rejects.toMatchObject({ code: 'network' });
    expect(first).toHaveBeenCalledWith('/error?code=network', true);
    expect(second).not.toHaveBeenCalled();
  });

  it('reports a server failure to /log as a known code and the route pattern, nothing else', async () => {
    configureApi({ getSessionId: () => 's1', navigate: vi.fn(), onValidation: vi.fn(), currentPath: () => '/providers/syn/paymentPlans' });
    configureClientLog({ getSessionId: () => 's1', currentRoute: () => '/providers/{providerKey}/paymentPlans' });
    const fetchMock = vi.fn(async (url: string) =>
      url.endsWith('/log')
        ? new Response(null, { status: 204 })
        : new Response(JSON.stringify({ code: 'internal', message: 'boom for Ann', requestId: 'r1' }), { status: 500 }),
    );
    vi.stubGlobal('fetch', fetchMock);
    await expect(api.get('/providers/syn/payment/plans')).rejects.toBeInstanceOf(ApiError);
    const log = fetchMock.mock.calls.find((c) => String(c[0]).endsWith('/log')) as unknown as [string, RequestInit];
    const body = JSON.parse(String(log[1].body)) as Record<string, unknown>;
    expect(body).toMatchObject({ level: 'error', code: 'api.internal', route: '/providers/{providerKey}/paymentPlans' });
    expect(Object.keys(body).sort()).toEqual(['clientDateTime', 'code', 'level', 'route']);
    // A code the client does not know is not passed on.
    fetchMock.mockImplementation(async (url: string) =>
      url.endsWith('/log') ? new Response(null, { status: 204 }) : new Response(JSON.stringify({ code: 'Ann Smith 078-05-1120' }), { status: 502 }),
    );
    await expect(api.get('/x')).rejects.toBeInstanceOf(ApiError);
    const last = fetchMock.mock.calls.filter((c) => String(c[0]).endsWith('/log')).at(-1) as unknown as [string, RequestInit];
    expect(JSON.parse(String(last[1].body))).toMatchObject({ code: 'api.unknown' });
  });

  it('tolerates 404 resource_not_found when asked', async () => {
    configureApi({ getSessionId: () => null, navigate: vi.fn(), onValidation: vi.fn(), currentPath: () => '/' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ code: 'resource_not_found', message: '' }), { status: 404 })),
    );
    await expect(api.get('/x', { allowNotFound: true })).resolves.toBeNull();
  });
});

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
const inFlight = (retryAfter = '3') =>
  json({ code: 'in_flight', message: 'This step is already being processed.' }, 409, { 'Retry-After': retryAfter });

/** fetch answering from a list, recording when each call came (fake time) and its body. */
function answers(...list: (Response | Error)[]) {
  const calls: { at: number; body: string | undefined; key: string | undefined }[] = [];
  const start = Date.now();
  const fetchMock = vi.fn(async (_url: string, init?: RequestInit) => {
    const headers = (init?.headers ?? {}) as Record<string, string>;
    calls.push({ at: Date.now() - start, body: init?.body as string | undefined, key: headers['Idempotency-Key'] });
    const next = list.shift() ?? new Error('no more answers');
    if (next instanceof Error) throw next;
    return next;
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

describe('lender steps in flight (409 in_flight, Retry-After) and dropped connections', () => {
  function setup() {
    vi.useFakeTimers();
    const navigate = vi.fn();
    configureApi({ getSessionId: () => 's1', navigate, onValidation: vi.fn(), currentPath: () => '/p' });
    return navigate;
  }

  it('409 in_flight then 200: one result, after waiting Retry-After, with the same body', async () => {
    const navigate = setup();
    const calls = answers(inFlight('3'), json({ responseCode: 'approved' }));
    const p = api.post<{ responseCode: string }>('/providers/syn/prequalify', { primary: { firstName: 'Ann' } }, { lenderStep: true });
    await vi.advanceTimersByTimeAsync(2_999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(p).resolves.toEqual({ responseCode: 'approved' });
    expect(calls).toHaveLength(2);
    expect(calls[1]!.at).toBe(3_000);
    expect(calls[1]!.body).toBe(calls[0]!.body);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('every attempt of a lender step carries the same Idempotency-Key, another step another, other calls none', async () => {
    setup();
    const calls = answers(inFlight('1'), json({}), json({}), json({}), json({}));
    const accept = api.post('/providers/syn/acceptOffer', {}, { lenderStep: true });
    await vi.advanceTimersByTimeAsync(1_000);
    await accept;
    await api.post('/providers/syn/acceptOffer', {}, { lenderStep: true }); // "Try again"
    await api.post('/providers/syn/application/esign', {}, { lenderStep: true });
    await api.post('/providers/syn/payment/plans', { amountCents: 100 });
    const [a1, a2, a3, esign, plans] = calls.map((c) => c.key);
    expect(a1).toMatch(/^[0-9a-f]{24}:\/providers\/syn\/acceptOffer$/);
    expect([a2, a3]).toEqual([a1, a1]);
    expect(esign).not.toBe(a1);
    expect(esign).toMatch(/application\/esign$/);
    expect(plans).toBeUndefined();
  });

  it('any call answered in_flight is asked again, not only lender steps', async () => {
    setup();
    const calls = answers(inFlight('1'), json({ ok: true }));
    const p = api.post('/providers/syn/application/complete', {});
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(p).resolves.toEqual({ ok: true });
    expect(calls.map((c) => c.at)).toEqual([0, 1_000]);
  });

  it('Retry-After is clamped to 1–15 seconds per wait', () => {
    expect(retryAfterMs('3')).toBe(3_000);
    expect(retryAfterMs('60')).toBe(15_000);
    expect(retryAfterMs('0')).toBe(1_000);
    expect(retryAfterMs(null)).toBe(RETRY.defaultWaitMs);
    expect(retryAfterMs('soon')).toBe(RETRY.defaultWaitMs);
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(retryAfterMs('Sun, 22 Nov 2026 10:00:05 GMT', now)).toBe(5_000);
  });

  it('a dropped connection on a lender step is retried after a short wait: the server answers with the first answer', async () => {
    const navigate = setup();
    const calls = answers(new TypeError('Failed to fetch'), json({ responseCode: 'declined' }));
    const p = api.post('/providers/syn/acceptOffer', { providerPlanCode: 'P12' }, { lenderStep: true, noErrorHandling: true });
    await vi.advanceTimersByTimeAsync(RETRY.networkWaitsMs[0]!);
    await expect(p).resolves.toEqual({ responseCode: 'declined' });
    expect(calls).toHaveLength(2);
    expect(calls[1]!.body).toBe(JSON.stringify({ providerPlanCode: 'P12' }));
    expect(navigate).not.toHaveBeenCalled();
  });

  it('still in flight after about two minutes: a calm "still working" error, never the error page', async () => {
    const navigate = setup();
    const calls = answers(...Array.from({ length: 20 }, () => inFlight('15')));
    const p = api.post('/providers/syn/prequalify', {}, { lenderStep: true, apply: { providerKey: 'syn', resubmitRoute: '/r' } });
    const caught = p.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(RETRY.budgetMs + 30_000);
    const err = (await caught) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.code).toBe('in_flight');
    expect(err.stillWorking).toBe(true);
    expect(navigate).not.toHaveBeenCalled();
    expect(calls.at(-1)!.at).toBeLessThanOrEqual(RETRY.budgetMs);
    expect(calls.length).toBe(9); // at 0, 15, 30 … 120 s
  });

  it('a connection that stays down ends the same way on a lender step', async () => {
    const navigate = setup();
    answers(...Array.from({ length: 40 }, () => new TypeError('Failed to fetch')));
    const caught = api.post('/providers/syn/application/esign', {}, { lenderStep: true }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(RETRY.budgetMs + 30_000);
    expect(await caught).toMatchObject({ code: 'network', stillWorking: true });
    expect(navigate).not.toHaveBeenCalled();
  });
});
