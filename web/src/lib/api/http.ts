import type { Language } from '@/lib/language';

/*
 * What every patient call carries, apart from the client (client.ts) so the
 * early start (early.ts) sends the very same request before the app loads.
 */

export const API_BASE = '/api/v1';

let zone: string | undefined;

/** timeZone is the patient's time zone, read once: the first date format a page makes is slow on a phone. */
function timeZone(): string {
  try {
    zone ??= Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
    return zone;
  } catch {
    return 'UTC';
  }
}

/** requestHeaders answers a call's headers: its language, the patient's time zone, the session and the step's key when there are. */
export function requestHeaders(
  language: Language,
  sessionId: string | null | undefined,
  hasBody: boolean,
  idempotencyKey?: string,
): Record<string, string> {
  // The server answers its messages in the app's language (docs/languages.md).
  const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': language, 'X-Time-Zone': timeZone() };
  if (hasBody) headers['Content-Type'] = 'application/json';
  if (sessionId) headers['X-Web-Session-Id'] = sessionId;
  if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
  return headers;
}
