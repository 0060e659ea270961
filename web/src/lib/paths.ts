/**
 * App paths: the one place that builds the browser's `/providers/{key}/…`
 * routes (docs/behaviour.md, "Routes"). The API's own paths, which look the
 * same under /api/v1, are built by providerPath in lib/api/client.ts.
 */

/** providerRoute answers the app route `rest` of one provider, e.g. providerRoute('a', 'terms') → /providers/a/terms. */
export function providerRoute(providerKey: string, rest: string): string {
  return `/providers/${encodeURIComponent(providerKey)}/${rest}`;
}
