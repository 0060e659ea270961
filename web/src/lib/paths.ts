/**
 * App paths: the one place that builds the browser's `/providers/{key}/…`
 * routes (docs/behaviour.md, "Routes"). The API's own paths, which look the
 * same under /api/v1, are built by lenderPath in lib/api/client.ts.
 */

/** LENDER_ROUTES is the route every lender's screen sits under (app/lenderRoutes.tsx). */
export const LENDER_ROUTES = 'providers/:providerKey';

/** isLenderPath answers whether a browser path is one of a lender's screens. */
export function isLenderPath(path: string): boolean {
  return path.startsWith('/providers/');
}

/** lenderRoute answers the app route `rest` of one lender, e.g. lenderRoute('a', 'terms') → /providers/a/terms. */
export function lenderRoute(providerKey: string, rest: string): string {
  return `/providers/${encodeURIComponent(providerKey)}/${rest}`;
}
