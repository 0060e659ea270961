import { API_BASE } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';

/*
 * The one place office calls go through (docs/behaviour.md, "The office
 * side"). It is apart from the patient's client on purpose: office calls
 * carry the staff cookie (the browser sends it; no script can read it) and
 * the CSRF token, never the patient's session header.
 */

export type OfficeFieldError = components['schemas']['FieldError'];

/** OfficeError is a refused office call, with the server's words (and its field errors, for a validation_error). */
export class OfficeError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fieldErrors: OfficeFieldError[];
  constructor(status: number, code: string, message: string, fieldErrors: OfficeFieldError[] = []) {
    super(message);
    this.name = 'OfficeError';
    this.status = status;
    this.code = code;
    this.fieldErrors = fieldErrors;
  }
}

const networkWords = 'We could not reach Chairside. Check the connection and try again.';

/**
 * officeCall sends one office call; it answers null for a 204 and throws OfficeError for anything refused.
 * idempotencyKey names a change that must be made once however often it is sent (a refund).
 */
export async function officeCall<T>(method: string, path: string, body?: unknown, csrf?: string, idempotencyKey?: string): Promise<T | null> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
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
    const e = (json ?? {}) as { code?: string; message?: string; fieldErrors?: OfficeFieldError[] };
    throw new OfficeError(res.status, e.code ?? 'unknown', e.message ?? 'Something went wrong. Please try again.', e.fieldErrors ?? []);
  }
  return json as T;
}
