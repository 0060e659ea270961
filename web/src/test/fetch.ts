import { vi } from 'vitest';

/** json answers a JSON response, as the server would. */
export const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** inFlight is the 409 of a lender step being processed right now, with its Retry-After. */
export const inFlight = (seconds: number) =>
  new Response(JSON.stringify({ code: 'in_flight', message: 'Already being processed.' }), {
    status: 409,
    headers: { 'Retry-After': String(seconds) },
  });

export interface Call {
  method: string;
  path: string;
  body: string | undefined;
  at: number;
}

/** apiPath is the path of a fetched URL without /api/v1. */
export const apiPath = (url: string) => new URL(url, 'http://x').pathname.replace('/api/v1', '');

/**
 * routes stubs fetch: each API path answers from its own list (the last answer
 * repeats; an Error is thrown as a dropped connection); unknown paths answer
 * 404. Every call is recorded.
 */
export function routes(table: Record<string, (Response | Error | (() => Response))[]>): Call[] {
  const calls: Call[] = [];
  const start = Date.now();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = apiPath(url);
      calls.push({ method: init?.method ?? 'GET', path, body: init?.body as string | undefined, at: Date.now() - start });
      const list = table[path];
      if (!list) return json({ code: 'resource_not_found' }, 404);
      const next = list.length > 1 ? list.shift()! : list[0]!;
      if (next instanceof Error) throw next;
      return typeof next === 'function' ? next() : next.clone();
    }),
  );
  return calls;
}
