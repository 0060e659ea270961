import { API_BASE } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';
import { officeCall } from './http';

/*
 * The office's funding screen (api/openapi.yaml, GET /office/funding): the
 * deposits of a day, a week or a month by lender, the cases each carries,
 * the cases held back, totals and alerts; and the same as a CSV file for
 * the practice's bookkeeping.
 */

export type OfficeFunding = components['schemas']['OfficeFunding'];
export type OfficeDeposit = components['schemas']['OfficeDeposit'];
export type OfficeFundedCase = components['schemas']['OfficeFundedCase'];
export type OfficeFundingTotals = components['schemas']['OfficeFundingTotals'];
export type OfficeFundingAlert = OfficeFunding['alerts'][number];
export type OfficeFundingChange = OfficeFunding['changes'][number];
export type FundingPeriod = OfficeFunding['period'];

/** fundingQueryString is the query of the screen and its CSV file. */
export function fundingQueryString(day: string, tz: string, period: FundingPeriod): string {
  return new URLSearchParams({ day, tz, period }).toString();
}

/** The CSV is fetched by the browser itself (a download link), with the cookie. */
export const fundingCsvUrl = (qs: string) => `${API_BASE}/office/funding.csv?${qs}`;

export async function getFunding(qs: string): Promise<OfficeFunding> {
  return (await officeCall<OfficeFunding>('GET', `/office/funding?${qs}`))!;
}
