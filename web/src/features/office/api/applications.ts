import { API_BASE } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';
import { officeCall } from './http';

/*
 * The office's applications and invitations (api/openapi.yaml, tag office):
 * the day's list (also as a live stream and a CSV file), one application
 * with its history, and making or cancelling an invitation. Every call
 * answers only the signed-in staff member's own office.
 */

export type OfficeApplication = components['schemas']['OfficeApplication'];
export type OfficeApplicationList = components['schemas']['OfficeApplicationList'];
export type OfficeApplicationDetail = components['schemas']['OfficeApplicationDetail'];
export type OfficeApplicationStatus = components['schemas']['OfficeApplicationStatus'];
export type OfficeEvent = OfficeApplicationDetail['events'][number];
export type OfficeLender = components['schemas']['OfficeLender'];
export type OfficePlan = components['schemas']['OfficePlan'];
export type OfficeInviteRequest = components['schemas']['OfficeInviteRequest'];
export type OfficeInvite = components['schemas']['OfficeInvite'];
export type OfficeSentTo = components['schemas']['OfficeSentTo'];
export type ExperienceType = components['schemas']['ExperienceType'];
export type OfficeMoney = components['schemas']['OfficeMoney'];
export type OfficeMoneyEntry = components['schemas']['OfficeMoneyEntry'];
export type OfficeCaseChange = components['schemas']['OfficeCaseChange'];
export type OfficeChangePlan = components['schemas']['OfficeChangePlan'];
export type OfficeChangeResult = components['schemas']['OfficeChangeResult'];
export type OfficeAmountChange = components['schemas']['OfficeAmountChange'];
export type OfficeAmountPlan = components['schemas']['OfficeAmountPlan'];
export type OfficeAmountResult = components['schemas']['OfficeAmountResult'];

/** DayQuery is what the list shows: one day in the screen's time zone, and one status or all. */
export interface DayQuery {
  /** YYYY-MM-DD. */
  day: string;
  /** IANA time zone, the browser's own. */
  tz: string;
  /** '' for all. */
  status: OfficeApplicationStatus | '';
}

/** dayQueryString is the query of the list, its stream and its CSV file. */
export function dayQueryString(q: DayQuery): string {
  const p = new URLSearchParams({ day: q.day, tz: q.tz });
  if (q.status) p.set('status', q.status);
  return p.toString();
}

/** The stream and the CSV are fetched by the browser itself (EventSource, a download link), with the cookie. */
export const streamUrl = (qs: string) => `${API_BASE}/office/applications/stream?${qs}`;
export const csvUrl = (qs: string) => `${API_BASE}/office/applications.csv?${qs}`;

export async function listApplications(qs: string): Promise<OfficeApplicationList> {
  return (await officeCall<OfficeApplicationList>('GET', `/office/applications?${qs}`))!;
}

export async function getApplication(id: string): Promise<OfficeApplicationDetail> {
  return (await officeCall<OfficeApplicationDetail>('GET', `/office/applications/${encodeURIComponent(id)}`))!;
}

export async function createInvite(body: OfficeInviteRequest, csrf: string): Promise<OfficeInvite> {
  return (await officeCall<OfficeInvite>('POST', '/office/invites', body, csrf))!;
}

export async function cancelInvite(id: string, csrf: string): Promise<void> {
  await officeCall<null>('DELETE', `/office/invites/${encodeURIComponent(id)}`, undefined, csrf);
}

/** retryRecords makes a case's posts to Open Dental that failed or wait due again at once. */
export async function retryRecords(id: string, csrf: string): Promise<void> {
  await officeCall<null>('POST', `/office/applications/${encodeURIComponent(id)}/records/retry`, undefined, csrf);
}

/** resendInvite sends an invitation's link again, to where it was first sent; answers where it goes. */
export async function resendInvite(id: string, csrf: string): Promise<OfficeSentTo[]> {
  return (await officeCall<{ sentTo: OfficeSentTo[] }>('POST', `/office/invites/${encodeURIComponent(id)}/resend`, undefined, csrf))!.sentTo;
}

/** previewChange answers what a void or refund would ask of the lender, without asking. */
export async function previewChange(id: string, change: OfficeCaseChange, csrf: string): Promise<OfficeChangePlan> {
  return (await officeCall<OfficeChangePlan>('POST', `/office/applications/${encodeURIComponent(id)}/changes/preview`, change, csrf))!;
}

/** changeCase makes a void or refund once: key is made once per change the manager confirms. */
export async function changeCase(id: string, change: OfficeCaseChange, csrf: string, key: string): Promise<OfficeChangeResult> {
  return (await officeCall<OfficeChangeResult>('POST', `/office/applications/${encodeURIComponent(id)}/changes`, change, csrf, key))!;
}

/** previewAmount answers what a change of the treatment amount would do, without doing it. */
export async function previewAmount(id: string, change: OfficeAmountChange, csrf: string): Promise<OfficeAmountPlan> {
  return (await officeCall<OfficeAmountPlan>('POST', `/office/applications/${encodeURIComponent(id)}/amount/preview`, change, csrf))!;
}

/** changeAmount changes the treatment amount once: key is made once per change the manager confirms. */
export async function changeAmount(id: string, change: OfficeAmountChange, csrf: string, key: string): Promise<OfficeAmountResult> {
  return (await officeCall<OfficeAmountResult>('POST', `/office/applications/${encodeURIComponent(id)}/amount`, change, csrf, key))!;
}
