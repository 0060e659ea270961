import { reportClientError } from '@/lib/clientLog';
import { lenderRoute } from '@/lib/paths';
import { requestLanguage } from '@/lib/i18n';
import { apiEnvironment, type ApiEnvironment } from './environment';
import { takeEarlyStart } from './early';
import { API_BASE, requestHeaders } from './http';
import { isKnownErrorCode, type ApiErrorBody, type ApplicantType, type FieldError } from './types';

export { configureApi, type ApiEnvironment, type ValidationState } from './environment';

export { API_BASE } from './http';

/** ApiError is every failure the client reports: HTTP errors, network failures and bad JSON. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fieldErrors: FieldError[];
  readonly requestId?: string;
  /** Where the central handler sent the user, if it navigated. */
  redirectedTo?: string;
  /**
   * Set when a lender step was still being processed (409 in_flight) or the
   * server could not be reached, and retrying for about two minutes did not
   * bring the answer: the caller shows that the lender is still working on
   * it, with a way to try again. Never an error page.
   */
  stillWorking = false;
  /** The lender whose step this was, when the caller knows it. */
  providerKey?: string;

  constructor(status: number, body: { code?: string; message?: string; fieldErrors?: FieldError[]; requestId?: string }) {
    super(body.message ?? body.code ?? `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.code = body.code ?? (status === 0 ? 'network' : 'unknown');
    this.fieldErrors = body.fieldErrors ?? [];
    this.requestId = body.requestId;
  }
}

/** Context of a call made from the apply flow, so a 400 can route to correctErrors. */
export interface ApplyContext {
  providerKey: string;
  /** The route to come back to after the errors are corrected. */
  resubmitRoute: string;
}

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  /** Turn off the central error handling (the caller handles everything). */
  noErrorHandling?: boolean;
  /** Error codes the caller answers itself: no error page for these, the rest handled centrally. */
  ownCodes?: readonly string[];
  /** Answer null instead of failing on 404 resource_not_found. */
  allowNotFound?: boolean;
  /** Set for calls in the apply flow. */
  apply?: ApplyContext;
  /**
   * A lender step (submit, acceptOffer, esign, complete), named by its path:
   * the server answers a repeat with the first answer and never asks the
   * lender twice, so a dropped connection is retried too, and running out
   * of retries ends in `stillWorking` rather than an error page. Every
   * attempt of the step from this page — retries and "Try again" — carries
   * the same Idempotency-Key, which is how the server knows a repeat of an
   * accept or a signature that already went through is ours and answers it
   * again (docs/exactly-once.md).
   */
  lenderStep?: boolean;
  /** The session to name instead of this tab's (a documents page opened from a link that carries one). */
  sessionId?: string;
  signal?: AbortSignal;
}

/** buildHeaders answers the headers of a call made now, in the language the app asks in. */
export function buildHeaders(sessionId: string | null | undefined, hasBody: boolean, idempotencyKey?: string): Record<string, string> {
  return requestHeaders(requestLanguage(), { hasBody, sessionId, idempotencyKey });
}

/** pageKey is this page's part of every Idempotency-Key: random, made once. */
const pageKey = (() => {
  const b = new Uint8Array(12);
  crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
})();

/** idempotencyKey names a lender step of this page: the same for all its attempts. */
export function idempotencyKey(path: string): string {
  return `${pageKey}:${path}`.slice(0, 128);
}

function buildUrl(path: string, query?: RequestOptions['query']): string {
  let url = API_BASE + path;
  if (query) {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) qs.set(k, String(v));
    const s = qs.toString();
    if (s) url += '?' + s;
  }
  return url;
}

/** Split "primary.ssn" into applicant and field id. */
export function splitFieldName(field: string): { applicant: ApplicantType; id: string } {
  const [head, ...rest] = field.split('.');
  if ((head === 'primary' || head === 'joint') && rest.length > 0) return { applicant: head, id: rest.join('.') };
  return { applicant: 'primary', id: field };
}

/**
 * errorTarget is THE place deciding where a failed call sends the user
 * (docs/behaviour.md, "Routes"): session_invalid → sessionInvalid; amount_changed → the
 * lender's amountChanged, which reads the new amount and shows the plans again; 400 in the
 * apply flow → correctErrors; anything else → the general error page.
 */
export function errorTarget(err: ApiError, opts: Pick<RequestOptions, 'apply'>, currentPath: string): string {
  if (err.code === 'session_invalid' || err.status === 401) return '/session/invalid';
  if (err.code === 'amount_changed') {
    // The office changed the treatment amount: the plans are chosen again
    // (docs/behaviour.md, "Changing the amount").
    const key = opts.apply?.providerKey ?? /^\/providers\/([^/]+)\//.exec(currentPath)?.[1];
    if (key) return lenderRoute(decodeURIComponent(key), 'amountChanged');
  }
  if (err.status === 400 && opts.apply && err.fieldErrors.length > 0) {
    const applicants = invalidApplicants(err.fieldErrors);
    const path = lenderRoute(opts.apply.providerKey, 'correctErrors');
    if (currentPath.endsWith('/correctErrors')) return currentPath + `?applicantType=${applicants[0] ?? 'primary'}`;
    return `${path}?applicantType=${applicants[0] ?? 'primary'}`;
  }
  const params = new URLSearchParams({ code: err.code });
  if (err.requestId) params.set('requestId', err.requestId);
  return `/error?${params.toString()}`;
}

export function invalidApplicants(fieldErrors: FieldError[]): ApplicantType[] {
  const set = new Set<ApplicantType>();
  for (const fe of fieldErrors) set.add(splitFieldName(fe.field).applicant);
  return (['primary', 'joint'] as const).filter((a) => set.has(a));
}

function parseBody(status: number, text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(status || 502, { code: 'bad_response', message: 'The server sent an unreadable answer.' });
  }
}

/**
 * Retrying: a step still in flight (409 in_flight) is asked again after its
 * Retry-After, clamped to 1–15 s; a lender step whose connection dropped is
 * asked again after a short wait. Both stop after about two minutes in all.
 */
export const RETRY = {
  budgetMs: 120_000,
  minWaitMs: 1_000,
  maxWaitMs: 15_000,
  /** Used when an in_flight answer has no usable Retry-After. */
  defaultWaitMs: 2_000,
  /** Waits after the 1st, 2nd, 3rd … dropped connection; the last repeats. */
  networkWaitsMs: [1_000, 2_000, 4_000, 5_000],
};

/** retryAfterMs reads a Retry-After header (seconds or an HTTP date) and clamps it to 1–15 s. */
export function retryAfterMs(header: string | null, now: number = Date.now()): number {
  const clamp = (ms: number) => Math.min(RETRY.maxWaitMs, Math.max(RETRY.minWaitMs, ms));
  const v = header?.trim() ?? '';
  if (/^\d+$/.test(v)) return clamp(Number(v) * 1000);
  const at = v ? Date.parse(v) : NaN;
  if (Number.isFinite(at)) return clamp(at - now);
  return clamp(RETRY.defaultWaitMs);
}

function networkWaitMs(failures: number): number {
  const w = RETRY.networkWaitsMs;
  return w[Math.min(failures, w.length - 1)]!;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new DOMException('Aborted', 'AbortError'));
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new DOMException('Aborted', 'AbortError'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

const isAbort = (e: unknown) => e instanceof DOMException && e.name === 'AbortError';

/**
 * request makes one API call; failures are handled centrally, then rethrown.
 * The body is serialised once, so every retry sends exactly the same bytes.
 */
export async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
  const hasBody = opts.body !== undefined;
  const body = hasBody ? JSON.stringify(opts.body) : undefined;
  const url = buildUrl(path, opts.query);
  const started = Date.now();
  // The hooks in force when the call was made answer for it to the end: a
  // call that fails late reports to the app that sent it (the route tests
  // wire a new router for each test; the app wires one once).
  const env = apiEnvironment();
  let dropped = 0;
  /** retry waits before the next attempt, or answers false when that would pass the budget. */
  const retry = async (waitMs: number): Promise<boolean> => {
    if (Date.now() - started + waitMs > RETRY.budgetMs) return false;
    await sleep(waitMs, opts.signal);
    return true;
  };
  // The start call a link's page sent before the app loaded (early.ts) answers this call's first attempt.
  let early = opts.query ? null : takeEarlyStart(method, path, env.getSessionId());
  for (;;) {
    let res: Response;
    let text: string;
    try {
      const sent = early;
      early = null;
      res = await (sent ??
        fetch(url, {
          method,
          headers: buildHeaders(opts.sessionId ?? env.getSessionId(), hasBody, opts.lenderStep ? idempotencyKey(path) : undefined),
          body,
          credentials: 'same-origin',
          signal: opts.signal,
        }));
      text = await res.text();
    } catch (e) {
      if (isAbort(e)) throw e;
      const err = new ApiError(0, { code: 'network', message: 'The server could not be reached.' });
      if (opts.lenderStep) {
        if (await retry(networkWaitMs(dropped++))) continue;
        err.stillWorking = true;
      }
      return fail(err, opts, env);
    }
    let parsed: unknown;
    try {
      parsed = parseBody(res.status, text);
    } catch (e) {
      return fail(e as ApiError, opts, env);
    }
    if (res.ok) return parsed as T;
    const errBody = (parsed && typeof parsed === 'object' ? parsed : {}) as Partial<ApiErrorBody>;
    const err = new ApiError(res.status, errBody);
    if (err.code === 'in_flight') {
      // The same step is being processed right now: ask again when the server says.
      if (await retry(retryAfterMs(res.headers.get('Retry-After')))) continue;
      if (opts.lenderStep) err.stillWorking = true;
    }
    if (opts.allowNotFound && res.status === 404 && err.code === 'resource_not_found') return null as T;
    return fail(err, opts, env);
  }
}

/**
 * isHandled: the central handler already took care of this failure (it sent
 * the patient to the page that explains it), so the caller does nothing more.
 */
export function isHandled(e: unknown): boolean {
  return e instanceof ApiError && Boolean(e.redirectedTo);
}

/** isStillWorking: a lender step that is still being processed after every retry (see ApiError.stillWorking). */
export function isStillWorking(e: unknown): e is ApiError {
  return e instanceof ApiError && e.stillWorking;
}

function fail(err: ApiError, opts: RequestOptions, env: ApiEnvironment): never {
  if (err.stillWorking) {
    // Not an error page: the caller keeps the patient where they are and offers to try again.
    reportClientError(err.code === 'network' ? 'api.lender_step.offline' : 'api.lender_step.in_flight', 'warn');
    throw err;
  }
  if (err.status >= 500 || err.status === 0) reportClientError(`api.${isKnownErrorCode(err.code) ? err.code : 'unknown'}`, 'error');
  if (!opts.noErrorHandling && !opts.ownCodes?.includes(err.code)) {
    if (err.status === 400 && opts.apply && err.fieldErrors.length > 0) {
      env.onValidation({
        providerKey: opts.apply.providerKey,
        resubmitRoute: opts.apply.resubmitRoute,
        invalidApplicants: invalidApplicants(err.fieldErrors),
        fieldErrors: err.fieldErrors,
      });
    }
    const target = errorTarget(err, opts, env.currentPath());
    err.redirectedTo = target;
    env.navigate(target, true);
  }
  throw err;
}

export const api = {
  get: <T>(path: string, opts?: RequestOptions) => request<T>('GET', path, opts),
  post: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('POST', path, { ...opts, body }),
  put: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('PUT', path, { ...opts, body }),
  patch: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('PATCH', path, { ...opts, body }),
  delete: <T>(path: string, opts?: RequestOptions) => request<T>('DELETE', path, opts),
};

/** lenderPath builds an API path of one lender (under /api/v1); app routes are built by lenderRoute in lib/paths.ts. */
export function lenderPath(providerKey: string, rest: string): string {
  return `/providers/${encodeURIComponent(providerKey)}/${rest}`;
}
