import type { ApiErrorBody, ApplicantType, FieldError } from './types';

export const API_BASE = '/api/v1';

/** ApiError is every failure the client reports: HTTP errors, network failures and bad JSON. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fieldErrors: FieldError[];
  readonly requestId?: string;
  /** Where the central handler sent the user, if it navigated. */
  redirectedTo?: string;

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
  /** Answer null instead of failing on 404 resource_not_found. */
  allowNotFound?: boolean;
  /** Set for calls in the apply flow. */
  apply?: ApplyContext;
  signal?: AbortSignal;
}

export interface ValidationState {
  providerKey: string;
  resubmitRoute: string;
  invalidApplicants: ApplicantType[];
  fieldErrors: FieldError[];
}

/** Hooks the app plugs in: where the session id lives and how to navigate. */
export interface ApiEnvironment {
  getSessionId(): string | null | undefined;
  navigate(to: string, replace?: boolean): void;
  onValidation(state: ValidationState): void;
  currentPath(): string;
  log?(level: 'ERROR' | 'WARN' | 'INFO', message: string): void;
}

let env: ApiEnvironment = {
  getSessionId: () => null,
  navigate: () => undefined,
  onValidation: () => undefined,
  currentPath: () => '/',
};

export function configureApi(next: ApiEnvironment): void {
  env = next;
}

function timeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

export function buildHeaders(sessionId: string | null | undefined, hasBody: boolean): Record<string, string> {
  const headers: Record<string, string> = { Accept: 'application/json', 'X-Time-Zone': timeZone() };
  if (hasBody) headers['Content-Type'] = 'application/json';
  if (sessionId) headers['X-Web-Session-Id'] = sessionId;
  return headers;
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
 * (spec §8): session_invalid → sessionInvalid; 400 in the apply flow →
 * correctErrors; anything else → the general error page.
 */
export function errorTarget(err: ApiError, opts: Pick<RequestOptions, 'apply'>, currentPath: string): string {
  if (err.code === 'session_invalid' || err.status === 401) return '/session/invalid';
  if (err.status === 400 && opts.apply && err.fieldErrors.length > 0) {
    const applicants = invalidApplicants(err.fieldErrors);
    const path = `/providers/${encodeURIComponent(opts.apply.providerKey)}/correctErrors`;
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

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(res.status || 502, { code: 'bad_response', message: 'The server sent an unreadable answer.' });
  }
}

/** request makes one API call; failures are handled centrally, then rethrown. */
export async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
  const hasBody = opts.body !== undefined;
  let res: Response;
  try {
    res = await fetch(buildUrl(path, opts.query), {
      method,
      headers: buildHeaders(env.getSessionId(), hasBody),
      body: hasBody ? JSON.stringify(opts.body) : undefined,
      credentials: 'same-origin',
      signal: opts.signal,
    });
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    return fail(new ApiError(0, { code: 'network', message: 'The server could not be reached.' }), opts);
  }
  let body: unknown;
  try {
    body = await readBody(res);
  } catch (e) {
    return fail(e as ApiError, opts);
  }
  if (res.ok) return body as T;
  const errBody = (body && typeof body === 'object' ? body : {}) as Partial<ApiErrorBody>;
  const err = new ApiError(res.status, errBody);
  if (opts.allowNotFound && res.status === 404 && err.code === 'resource_not_found') return null as T;
  return fail(err, opts);
}

function fail(err: ApiError, opts: RequestOptions): never {
  if (!opts.noErrorHandling) {
    if (err.status === 400 && opts.apply && err.fieldErrors.length > 0) {
      env.onValidation({
        providerKey: opts.apply.providerKey,
        resubmitRoute: opts.apply.resubmitRoute,
        invalidApplicants: invalidApplicants(err.fieldErrors),
        fieldErrors: err.fieldErrors,
      });
    }
    if (err.status >= 500 || err.status === 0) env.log?.('ERROR', `api ${err.code} ${err.requestId ?? ''}`.trim());
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

export function providerPath(providerKey: string, rest: string): string {
  return `/providers/${encodeURIComponent(providerKey)}/${rest}`;
}
