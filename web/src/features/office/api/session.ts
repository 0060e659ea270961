import { API_BASE } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';

/*
 * The office API (docs/behaviour.md, "The office side"). It is apart from
 * the patient's client on purpose: office calls carry the staff cookie
 * (the browser sends it; no script can read it) and the CSRF token, never
 * the patient's session header. The CSRF token lives in memory only.
 */

export type OfficeSession = components['schemas']['OfficeSession'];

/** OfficeError is a refused office call, with the server's words. */
export class OfficeError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.name = 'OfficeError';
    this.status = status;
    this.code = code;
  }
}

const networkWords = 'We could not reach Chairside. Check the connection and try again.';

async function call<T>(method: string, path: string, body?: unknown, csrf?: string): Promise<T | null> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (csrf) headers['X-CSRF-Token'] = csrf;
  let res: Response;
  try {
    res = await fetch(API_BASE + path, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new OfficeError(0, 'network', networkWords);
  }
  if (res.status === 204) return null;
  let json: unknown = null;
  try {
    json = await res.json();
  } catch {
    json = null;
  }
  if (!res.ok) {
    const e = (json ?? {}) as { code?: string; message?: string };
    throw new OfficeError(res.status, e.code ?? 'unknown', e.message ?? 'Something went wrong. Please try again.');
  }
  return json as T;
}

/** signIn answers the signed-in staff member; the server sets the cookie. */
export async function signIn(email: string, password: string): Promise<OfficeSession> {
  return (await call<OfficeSession>('POST', '/office/session', { email, password }))!;
}

/** currentSession answers who is signed in (with a fresh CSRF token), or null when nobody is. */
export async function currentSession(): Promise<OfficeSession | null> {
  try {
    return await call<OfficeSession>('GET', '/office/session');
  } catch (e) {
    if (e instanceof OfficeError && e.status === 401) return null;
    throw e;
  }
}

/** signOut ends the session on the server; a session that already ended counts as signed out. */
export async function signOut(csrf: string): Promise<void> {
  try {
    await call<null>('DELETE', '/office/session', undefined, csrf);
  } catch (e) {
    if (e instanceof OfficeError && e.status === 401) return;
    throw e;
  }
}

/** setPassword uses a one-time setup link. */
export async function setPassword(token: string, password: string): Promise<void> {
  await call<null>('POST', `/office/setup/${encodeURIComponent(token)}`, { password });
}
