// Prints the gzip size of the JavaScript each built page tells the browser to
// load before anything else: its entry script and its module preloads.
// index.html is the first route (/idle and any path without a page of its
// own); start.html is what a link or QR code lands on, with the start
// screen's and the form's code named too (vite.config.ts, ENTRY_PAGES).
// Reading the pages themselves measures what the browser really fetches.
import { existsSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const web = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dist = path.join(web, 'dist');

/** The first route's budget, gzip. */
export const BUDGET_KB = 110;

/** pageJs answers the JS files a built page names (entry script and module preloads) with their sizes. */
export function pageJs(page = 'index.html') {
  const html = readFileSync(path.join(dist, page), 'utf8');
  const names = [...html.matchAll(/<(?:script type="module"[^>]*\ssrc|link rel="modulepreload"[^>]*\shref)="\/([^"]+\.js)"/g)].map((m) => m[1]);
  let raw = 0;
  let gz = 0;
  const files = [];
  for (const file of new Set(names)) {
    const buf = readFileSync(path.join(dist, file));
    const g = gzipSync(buf, { level: 9 }).length;
    raw += buf.length;
    gz += g;
    files.push({ file, gzipKB: +(g / 1024).toFixed(2) });
  }
  return { files, rawKB: +(raw / 1024).toFixed(2), gzipKB: +(gz / 1024).toFixed(2) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const first = pageJs('index.html');
  for (const f of first.files) console.log(`  ${f.file}  ${f.gzipKB} KB gzip`);
  console.log(`first-route JS: ${first.gzipKB} KB gzip (${first.rawKB} KB raw); budget ${BUDGET_KB} KB`);
  if (existsSync(path.join(dist, 'start.html'))) console.log(`link or QR code (start.html): ${pageJs('start.html').gzipKB} KB gzip`);
  if (first.gzipKB > BUDGET_KB) process.exitCode = 1;
}
