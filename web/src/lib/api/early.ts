import { preferredLanguage, storedChoice, type Language } from '@/lib/language';
import type { FirstWords } from '@/lib/firstWords';
import type { StartFlowResponse } from './types';
import { API_BASE, requestHeaders } from './http';

/*
 * The early start (docs/performance.md, "The application screen"). A
 * patient who opens a link or a QR code waits for two things before the
 * form shows: the app's code and the session the start call opens. The
 * page a link lands on (start.html) runs src/early.ts before the app, and
 * it sends the start call here while the app's code is still arriving; the
 * client (client.ts) then takes that call's answer instead of sending the
 * call itself. Either way the call goes out once.
 */

/** startPath is the API path of the start call from an entity key or a flow token. */
export function startPath(kind: 'entity-keys' | 'tokens', value: string): string {
  return `/flow/start/${kind}/${encodeURIComponent(value)}`;
}

/**
 * startBody is the body of a start from a link, early or not: whether the patient chose
 * the language the call asks in. When they did not, an office with a language of its own
 * answers the first form in it, the language the app will then speak (flow/start.ts).
 */
export function startBody(): { languageChosen: boolean } {
  return { languageChosen: storedChoice() !== null };
}

/**
 * startPathOf answers the start call a page's address asks for, or null: the
 * routes /start/entity-keys/:entityKey and /start/tokens/:token
 * (app/routes.tsx), with a key the start screen would send (16 digits).
 */
export function startPathOf(pathname: string): string | null {
  const m = /^\/start\/(entity-keys|tokens)\/([^/]+)\/?$/.exec(pathname);
  if (!m) return null;
  let value: string;
  try {
    value = decodeURIComponent(m[2]!);
  } catch {
    return null;
  }
  if (m[1] === 'entity-keys') return /^\d{16}$/.test(value) ? startPath('entity-keys', value) : null;
  return startPath('tokens', value);
}

let early: { path: string; response: Promise<Response> } | null = null;

/** EarlyStart is the start call sent early: its response, and the language it was asked in. */
export interface EarlyStart {
  response: Promise<Response>;
  asked: Language;
}

/** sendEarlyStart sends the start call the page's address asks for, and answers it; null when the address asks for none. */
export function sendEarlyStart(pathname: string): EarlyStart | null {
  const path = startPathOf(pathname);
  if (!path) return null;
  const asked = preferredLanguage();
  const response = fetch(API_BASE + path, {
    method: 'POST',
    // The start call counts no days: it leaves without the time zone, whose first read is slow (http.ts).
    headers: requestHeaders(asked, { hasBody: true, timeZone: false }),
    body: JSON.stringify(startBody()),
    credentials: 'same-origin',
  });
  // A failure reaches the client when it takes the call; until then it is not an unhandled rejection.
  response.catch(() => undefined);
  early = { path, response };
  return { response, asked };
}

/**
 * readEarlyStart answers a successful early start's body, read from a copy so that the
 * client still takes the answer whole; null when it failed. Ask before the client can
 * take the answer (takeEarlyStart): src/early.ts asks as the call leaves.
 */
export function readEarlyStart({ response }: EarlyStart): Promise<StartFlowResponse | null> {
  return response.then((r) => (r.ok ? (r.clone().json() as Promise<StartFlowResponse>) : null)).catch(() => null);
}

let painted: FirstWords | null = null;

/** notePainted keeps the words the page drew from the early start's answer (lib/firstWords.ts, paintFirstWords). */
export function notePainted(words: FirstWords): void {
  painted = words;
}

/** paintedWords answers the words drawn before the app, if any: the app's placeholder keeps them (app/Shell.tsx, ShellFallback). */
export function paintedWords(): FirstWords | null {
  return painted;
}

/** takeEarlyStart answers the early start call's response when this call is that one, once. */
export function takeEarlyStart(method: string, path: string, sessionId: string | null | undefined): Promise<Response> | null {
  if (!early || method !== 'POST' || path !== early.path || sessionId) return null;
  const { response } = early;
  early = null;
  return response;
}
