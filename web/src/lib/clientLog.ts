/**
 * reportClientError is the one way the browser tells the server that
 * something went wrong (POST /api/v1/log). It sends a code and where it
 * happened as a route PATTERN, never free text, names, values, messages,
 * stack traces or the concrete URL (which holds lender keys and ids), and
 * only from a live session: without one nothing is sent at all.
 */

import type { LogRequest } from './api/types';
import { LOG_CODES, LOG_ROUTES } from './clientLog.generated';

/** The body POST /log takes (api/openapi.yaml LogRequest). */
export type ClientLogBody = LogRequest;
export type ClientLogLevel = LogRequest['level'];

/** A code the server takes (flow/client_log.go, written for us in clientLog.generated.ts): nothing else is sent. */
export type LogCode = (typeof LOG_CODES)[number];
/** A route pattern the server takes: one of the route table's (routes.tsx; a test holds the two together). */
export type LogRoute = (typeof LOG_ROUTES)[number];

const isLogCode = (code: string): code is LogCode => (LOG_CODES as readonly string[]).includes(code);
const isLogRoute = (route: string): route is LogRoute => (LOG_ROUTES as readonly string[]).includes(route);
const LOG_URL = '/api/v1/log';

/** How many reports one page may send, and how long the same report is not repeated. */
const MAX_REPORTS = 30;
const REPEAT_MS = 10_000;

export interface ClientLogSource {
  /** The live session's id, or nothing when there is no session. */
  getSessionId(): string | null | undefined;
  /** The current route as a pattern, e.g. /providers/{providerKey}/paymentPlans. */
  currentRoute(): string;
}

let source: ClientLogSource = { getSessionId: () => null, currentRoute: () => '/' };
let sent = 0;
const recent = new Map<string, number>();

export function configureClientLog(next: ClientLogSource): void {
  source = next;
  sent = 0;
  recent.clear();
}

/**
 * joinRoute joins the paths of the matched routes into one pattern, with
 * each parameter in braces: ["/", "providers/:providerKey", "paymentPlans"]
 * gives "/providers/{providerKey}/paymentPlans".
 */
export function joinRoute(paths: readonly (string | undefined)[]): string {
  const segments = paths
    .flatMap((p) => (p ?? '').split('/'))
    .filter(Boolean)
    .map((s) => (s.startsWith(':') ? `{${s.slice(1).replace(/\?$/, '')}}` : s === '*' ? '{rest}' : s));
  return '/' + segments.join('/');
}

/** routePattern is joinRoute when the pattern is one the server takes, else "/". */
export function routePattern(paths: readonly (string | undefined)[]): LogRoute {
  const route = joinRoute(paths);
  return isLogRoute(route) ? route : '/';
}

/**
 * logCode passes a code the server takes and replaces anything else whole
 * (never a cleaned-up copy, which could still carry what was in it).
 */
export function logCode(code: string): LogCode {
  return isLogCode(code) ? code : 'client.invalid_code';
}

/** clientLogBody builds the exact body sent: these keys and nothing else. */
export function clientLogBody(code: string, level: ClientLogLevel, route: string, now: Date = new Date()): ClientLogBody {
  return {
    level,
    code: logCode(code),
    route: isLogRoute(route) ? route : '/',
    clientDateTime: now.toISOString(),
  };
}

/**
 * reportClientError sends one structured report for the current route.
 * Never throws and never waits; answers whether a report was sent.
 */
export function reportClientError(code: LogCode, level: ClientLogLevel = 'error'): boolean {
  try {
    const sessionId = source.getSessionId();
    if (!sessionId) return false;
    const body = clientLogBody(code, level, source.currentRoute());
    const key = `${body.level} ${body.code} ${body.route}`;
    const now = Date.now();
    const last = recent.get(key);
    if (sent >= MAX_REPORTS || (last !== undefined && now - last < REPEAT_MS)) return false;
    recent.set(key, now);
    sent += 1;
    void fetch(LOG_URL, {
      method: 'POST',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json', 'X-Web-Session-Id': sessionId },
      body: JSON.stringify(body),
      credentials: 'same-origin',
      keepalive: true,
    }).catch(() => undefined);
    return true;
  } catch {
    return false;
  }
}
