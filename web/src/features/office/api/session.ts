import type { components } from '@/lib/api/schema';
import { OfficeError, officeCall as call } from './http';

/*
 * Staff sign-in, sign-out and setup links (docs/behaviour.md, "The office
 * side"). The CSRF token the server answers lives in memory only.
 */

export { OfficeError };
export type OfficeSession = components['schemas']['OfficeSession'];

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
