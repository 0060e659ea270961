import { api } from '@/lib/api/client';
import type { ZipPlace } from '@/lib/api/types';

/**
 * The server's own checks of one value (docs/behaviour.md, "Validation"):
 * a plausible phone number, an email address it accepts, a ZIP code of the
 * state. Each answers the server's verdict; a failed call rejects, and the
 * caller ignores it (the submit is checked by the server anyway). No central
 * error handling: a failure here never leaves the form.
 */

interface ValidResponse {
  valid: boolean;
}

const ask = async (path: string, body: Record<string, string>, signal?: AbortSignal) =>
  (await api.post<ValidResponse>(path, body, { noErrorHandling: true, signal })).valid;

/** checkEmail: POST /validate/email. */
export const checkEmail = (email: string, signal?: AbortSignal) => ask('/validate/email', { email }, signal);

/** checkPhone: POST /validate/phone with the 10 digits, without formatting. */
export const checkPhone = (phone: string, signal?: AbortSignal) => ask('/validate/phone', { phoneNumber: phone.replace(/\D/g, '') }, signal);

/** checkZipCode: POST /validate/zipCode, the ZIP code with the state it must belong to. */
export const checkZipCode = (zipCode: string, state: string, signal?: AbortSignal) => ask('/validate/zipCode', { zipCode, state }, signal);

/** lookUpZip: GET /zipCodes/{zip}; null when the server's list does not have it. */
export const lookUpZip = (zip: string, signal?: AbortSignal) =>
  api.get<ZipPlace | null>(`/zipCodes/${encodeURIComponent(zip)}`, { noErrorHandling: true, allowNotFound: true, signal });
