import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clientLogBody, configureClientLog, joinRoute, logCode, reportClientError, routePattern } from './clientLog';
import { LOG_CODES, LOG_ROUTES } from './clientLog.generated';

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  fetchMock = vi.fn(async () => new Response(null, { status: 204 }));
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

const sentBodies = () => fetchMock.mock.calls.map((c) => JSON.parse(String((c[1] as RequestInit).body)) as Record<string, unknown>);

describe('reportClientError: structured reports to POST /log', () => {
  it('sends only level, code, route and clientDateTime, with the session header', () => {
    configureClientLog({ getSessionId: () => 's1', currentRoute: () => '/providers/{providerKey}/paymentPlans' });
    expect(reportClientError('api.internal')).toBe(true);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/v1/log');
    expect(init.method).toBe('POST');
    expect((init.headers as Record<string, string>)['X-Web-Session-Id']).toBe('s1');
    const body = sentBodies()[0]!;
    expect(Object.keys(body).sort()).toEqual(['clientDateTime', 'code', 'level', 'route']);
    expect(body).toMatchObject({ level: 'error', code: 'api.internal', route: '/providers/{providerKey}/paymentPlans' });
    expect(new Date(String(body.clientDateTime)).toISOString()).toBe(body.clientDateTime);
  });

  it('sends nothing at all without a live session', () => {
    configureClientLog({ getSessionId: () => null, currentRoute: () => '/idle' });
    expect(reportClientError('ui.route_error')).toBe(false);
    configureClientLog({ getSessionId: () => '', currentRoute: () => '/idle' });
    expect(reportClientError('ui.route_error', 'warn')).toBe(false);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('never sends free text: codes and routes are from the server lists or replaced whole', () => {
    configureClientLog({ getSessionId: () => 's1', currentRoute: () => '/providers/synchrony_standard/paymentPlans?name=Ann Smith' });
    // A code from outside the list, as a caller with a cast could send it.
    reportClientError('Lender said: Ann Smith, SSN 078-05-1120 is bad!' as 'api.internal', 'warn');
    const body = sentBodies()[0]!;
    expect(body.route).toBe('/');
    expect(body.code).toBe('client.invalid_code');
    // The clock's digits are the report's own (a time ending in .078 is not the SSN): only the rest is searched.
    expect(JSON.stringify({ ...body, clientDateTime: undefined })).not.toMatch(/Ann|Smith|078|1120|synchrony/);
    expect(Object.keys(body).sort()).toEqual(['clientDateTime', 'code', 'level', 'route']);
    expect(logCode('api.internal')).toBe('api.internal');
    // The right shape is not enough: a token or an SSN in a code's shape is refused.
    for (const c of ['API.Internal', '500', 'api.x7f3kq9zp2', 'ssn.078051120', 'x'.repeat(65)]) expect(logCode(c)).toBe('client.invalid_code');
    expect(LOG_CODES).toContain('client.invalid_code');
  });

  it('the level is one of error, warn, info', () => {
    expect(clientLogBody('ui.route_error', 'info', '/idle', new Date(0))).toEqual({
      level: 'info',
      code: 'ui.route_error',
      route: '/idle',
      clientDateTime: '1970-01-01T00:00:00.000Z',
    });
  });

  it('does not repeat the same report at once', () => {
    configureClientLog({ getSessionId: () => 's1', currentRoute: () => '/idle' });
    expect(reportClientError('ui.widget_failed')).toBe(true);
    expect(reportClientError('ui.widget_failed')).toBe(false);
    expect(reportClientError('ui.route_error')).toBe(true);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});

describe('routePattern: the route, never the concrete URL', () => {
  it('joins the matched routes, parameters in braces', () => {
    expect(routePattern(['/', 'providers/:providerKey', 'paymentPlans'])).toBe('/providers/{providerKey}/paymentPlans');
    expect(routePattern(['/', 'providers/:providerKey', 'modes/:mode/application'])).toBe('/providers/{providerKey}/modes/{mode}/application');
    expect(routePattern(['/', 'providers/:providerKey', 'resume/*'])).toBe('/providers/{providerKey}/resume/{rest}');
    expect(routePattern(['/', undefined])).toBe('/');
    expect(routePattern([])).toBe('/');
    // A pattern the route table does not have, a token or an SSN in a route's place, becomes "/".
    expect(joinRoute(['/', 'start/tokens/Zx81kQ'])).toBe('/start/tokens/Zx81kQ');
    expect(routePattern(['/', 'start/tokens/Zx81kQ'])).toBe('/');
    expect(routePattern(['/', '078-05-1120'])).toBe('/');
    for (const r of ['/providers/{providerKey}/paymentPlans', '/idle', '/']) expect(LOG_ROUTES).toContain(r);
  });
});
