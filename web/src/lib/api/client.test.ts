import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, buildHeaders, configureApi, errorTarget, invalidApplicants } from './client';

afterEach(() => vi.unstubAllGlobals());

describe('api client (spec §7, §8)', () => {
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
    expect(invalidApplicants([{ field: 'joint.a', message: '' }, { field: 'primary.b', message: '' }])).toEqual(['primary', 'joint']);
  });

  it('handles failures in one place and rethrows', async () => {
    const navigate = vi.fn();
    const onValidation = vi.fn();
    configureApi({ getSessionId: () => 's1', navigate, onValidation, currentPath: () => '/p' });
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ code: 'validation_error', message: 'no', fieldErrors: [{ field: 'primary.ssn', message: 'Invalid Field' }] }), { status: 400 }));
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
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(api.get('/x')).rejects.toMatchObject({ code: 'network' });
    expect(navigate).toHaveBeenCalledWith('/error?code=network', true);
  });

  it('tolerates 404 resource_not_found when asked', async () => {
    configureApi({ getSessionId: () => null, navigate: vi.fn(), onValidation: vi.fn(), currentPath: () => '/' });
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ code: 'resource_not_found', message: '' }), { status: 404 })));
    await expect(api.get('/x', { allowNotFound: true })).resolves.toBeNull();
  });
});
