import { describe, expect, it } from 'vitest';
import { type RouteObject } from 'react-router';
import { joinRoute } from '@/lib/clientLog';
import { LOG_ROUTES } from '@/lib/clientLog.generated';
import { wholeTable } from './testing';

/*
 * The route patterns the server takes in POST /log (flow/client_log.go,
 * written for the browser in lib/clientLog.generated.ts) are exactly the
 * route table's: a route added here without its pattern there would report
 * "/" for every error on it, and a pattern left there without its route
 * would let a browser report where no screen is.
 */

/** Every pattern a chain of matched routes can give, as routePattern joins them. */
function patterns(table: readonly RouteObject[], chain: readonly (string | undefined)[] = []): string[] {
  return table.flatMap((r) => {
    const next = [...chain, r.path];
    return [joinRoute(next), ...patterns(r.children ?? [], next)];
  });
}

describe('the route patterns the server takes', () => {
  it('are those of the route table, no more and no fewer', () => {
    const table = [...new Set(patterns(wholeTable))].sort();
    expect([...LOG_ROUTES].sort()).toEqual(table);
  });
});
