import type { Language } from '@/lib/language';

/*
 * What every patient call carries, apart from the client (client.ts) so the
 * early start (early.ts) sends the very same request before the app loads.
 */

export const API_BASE = '/api/v1';

let zone: string | undefined;

/**
 * browserTimeZone is the zone of the screen the app runs on (an IANA name),
 * read once: the patient's, sent on their calls, and the office screen's,
 * whose day its list asks for. The first read is the slowest thing a page
 * does before its first screen (it loads the browser's zone data), so the
 * start call, which counts no days, goes without it.
 */
export function browserTimeZone(): string {
  try {
    zone ??= Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
    return zone;
  } catch {
    return 'UTC';
  }
}

/** CallShape says what a call carries beyond its language: a body, a session, a step's key, the patient's time zone (the default). */
export interface CallShape {
  hasBody: boolean;
  sessionId?: string | null;
  idempotencyKey?: string;
  /** false only for a call that counts no days: the server then counts from its own (flow/timezone.go). */
  timeZone?: boolean;
}

/** requestHeaders answers a call's headers: its language, the patient's time zone, the session and the step's key when there are. */
export function requestHeaders(language: Language, call: CallShape): Record<string, string> {
  // The server answers its messages in the app's language (docs/languages.md).
  const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': language };
  if (call.timeZone !== false) headers['X-Time-Zone'] = browserTimeZone();
  if (call.hasBody) headers['Content-Type'] = 'application/json';
  if (call.sessionId) headers['X-Web-Session-Id'] = call.sessionId;
  if (call.idempotencyKey) headers['Idempotency-Key'] = call.idempotencyKey;
  return headers;
}
