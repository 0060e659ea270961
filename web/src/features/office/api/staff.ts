import { API_BASE } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';
import { OfficeError, officeCall as call } from './http';
import type { OfficeSession } from './session';

/*
 * The second factor (the authenticator app's code, asked after the
 * password), a group administrator's choice of office, and the managers'
 * staff and audit screens (api/openapi.yaml, tag office). A wrong code
 * answers 401 like an ended session: the screens that send one show the
 * server's words rather than calling endedBy401.
 */

export type OfficeRole = components['schemas']['OfficeRole'];
export type OfficeMember = components['schemas']['OfficeMember'];
export type OfficeStaffInvite = components['schemas']['OfficeStaffInvite'];
export type OfficeTOTPSetup = components['schemas']['OfficeTOTPSetup'];
export type OfficeAuditRow = components['schemas']['OfficeAuditRow'];
export type OfficeAuditLog = { day: string; entries: OfficeAuditRow[] };

/** forbidden: a refusal of the role (403), not of a stale CSRF token (403 csrf, whose words say so). */
export const forbidden = (e: unknown) => e instanceof OfficeError && e.status === 403 && e.code !== 'csrf';

/** passSecondFactor sends the app's 6 digits or a recovery code; the session answered is ready. */
export async function passSecondFactor(code: string, csrf: string): Promise<OfficeSession> {
  return (await call<OfficeSession>('POST', '/office/session/second-factor', { code }, csrf))!;
}

/** beginTotp makes a new key for the app; it counts once confirmTotp gets a right code. */
export async function beginTotp(csrf: string): Promise<OfficeTOTPSetup> {
  return (await call<OfficeTOTPSetup>('POST', '/office/second-factor/setup', undefined, csrf))!;
}

/** confirmTotp turns the app on with its first code and answers the recovery codes, shown once. */
export async function confirmTotp(code: string, csrf: string): Promise<string[]> {
  return (await call<{ codes: string[] }>('POST', '/office/second-factor/confirm', { code }, csrf))!.codes;
}

export async function switchOffice(entityKey: string, csrf: string): Promise<OfficeSession> {
  return (await call<OfficeSession>('PUT', '/office/session/office', { entityKey }, csrf))!;
}

export async function listStaff(): Promise<OfficeMember[]> {
  return (await call<{ staff: OfficeMember[] }>('GET', '/office/staff'))!.staff;
}

export async function inviteStaff(email: string, role: OfficeRole, csrf: string): Promise<OfficeStaffInvite> {
  return (await call<OfficeStaffInvite>('POST', '/office/staff', { email, role }, csrf))!;
}

const member = (id: string, what: string) => `/office/staff/${encodeURIComponent(id)}/${what}`;

export async function newSetupLink(id: string, csrf: string): Promise<OfficeStaffInvite> {
  return (await call<OfficeStaffInvite>('POST', member(id, 'setup-link'), undefined, csrf))!;
}

export async function disableStaff(id: string, csrf: string): Promise<void> {
  await call<null>('POST', member(id, 'disable'), undefined, csrf);
}

export async function resetSecondFactor(id: string, csrf: string): Promise<void> {
  await call<null>('POST', member(id, 'reset-second-factor'), undefined, csrf);
}

/** auditQueryString is the query of the audit log and its CSV: a day in the screen's own time zone. */
export const auditQueryString = (day: string, tz: string) => new URLSearchParams({ day, tz }).toString();

export async function auditLog(qs: string): Promise<OfficeAuditLog> {
  return (await call<OfficeAuditLog>('GET', `/office/audit?${qs}`))!;
}

/** The CSV is fetched by the browser itself, a download link with the cookie. */
export const auditCsvUrl = (qs: string) => `${API_BASE}/office/audit.csv?${qs}`;
