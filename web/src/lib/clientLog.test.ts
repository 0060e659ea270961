import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clientLogBody, configureClientLog, LOG_CODE, LOG_ROUTE, logCode, reportClientError, routePattern } from './clientLog';

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

  it('never sends free text: codes and routes are forced into their patterns', () => {
    configureClientLog({ getSessionId: () => 's1', currentRoute: () => '/providers/synchrony_standard/paymentPlans?name=Ann Smith' });
    reportClientError('Lender said: Ann Smith, SSN 078-05-1120 is bad!', 'warn');
    const body = sentBodies()[0]!;
    expect(body.code).toMatch(LOG_CODE);
    expect(body.route).toBe('/');
    expect(body.code).toBe('client.invalid_code');
    expect(JSON.stringify(body)).not.toMatch(/Ann|Smith|078|1120|synchrony/);
    expect(logCode('api.internal')).toBe('api.internal');
    expect(logCode('API.Internal')).toBe('client.invalid_code');
    expect(logCode('500')).toBe('client.invalid_code');
    expect(logCode('x'.repeat(65))).toBe('client.invalid_code');
  });

  it('the level is one of error, warn, info', () => {
    expect(clientLogBody('a', 'info', '/idle', new Date(0))).toEqual({
      level: 'info',
      code: 'a',
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
    for (const r of ['/providers/{providerKey}/paymentPlans', '/idle', '/']) expect(r).toMatch(LOG_ROUTE);
  });
});
