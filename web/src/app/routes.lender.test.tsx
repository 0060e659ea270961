import { describe, expect, it, vi } from 'vitest';
import type { PatchRoutesOnNavigationFunction } from 'react-router';
import { addLenderRoutes, ROOT, routes } from './routes';
import { providersRoute } from './lenderRoutes';

/*
 * The lender's screens join the route table when a path under /providers/ is
 * first asked for (routes.tsx, addLenderRoutes), so the first route carries
 * none of them (docs/performance.md, "The first route's budget"). The route
 * tests (routes.*.test.tsx) walk those screens through the same router
 * options.
 */

type Args = Parameters<PatchRoutesOnNavigationFunction>[0];

/** ask calls addLenderRoutes as the router would for path, with the routes matched so far, and answers what it patched. */
async function ask(path: string, matchedPaths: string[] = []) {
  const patch = vi.fn();
  const matches = matchedPaths.map((p) => ({ route: { path: p } }));
  await addLenderRoutes({ path, matches, patch, signal: new AbortController().signal } as unknown as Args);
  return patch;
}

describe("the lender's routes", () => {
  it('are not in the table the first route loads', () => {
    const paths = (routes[0]!.children ?? []).map((r) => r.path ?? '');
    expect(paths.filter((p) => p.startsWith('providers'))).toEqual([]);
    expect(routes[0]!.id).toBe(ROOT);
  });

  it('are added under the shell for the first path under /providers/', async () => {
    const patch = await ask('/providers/synchrony_standard/modes/prequalify/application', ['/']);
    expect(patch).toHaveBeenCalledTimes(1);
    expect(patch).toHaveBeenCalledWith(ROOT, [providersRoute]);
  });

  it('are not loaded for any other path, nor again once a path matches them', async () => {
    expect(await ask('/idle')).not.toHaveBeenCalled();
    expect(await ask('/start/entity-keys/1000200030004000', ['/', 'start/entity-keys/:entityKey'])).not.toHaveBeenCalled();
    expect(await ask('/providersx', ['/', '*'])).not.toHaveBeenCalled();
    expect(await ask('/providers/synchrony_standard/terms', ['/', 'providers/:providerKey'])).not.toHaveBeenCalled();
  });
});
