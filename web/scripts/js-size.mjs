// Prints the gzip size of the JS the first route (/idle, the landing screen)
// loads: the entry chunk and everything it imports statically, read from
// dist/.vite/manifest.json. Pass extra manifest keys (lazy route modules) to
// count what a given route adds: node scripts/js-size.mjs src/features/x/Y.tsx
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const web = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dist = path.join(web, 'dist');

export function firstRouteJs(extraKeys = []) {
  const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
  const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
  const seen = new Set();
  const walk = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const imp of manifest[key]?.imports ?? []) walk(imp);
  };
  walk(entry);
  for (const k of extraKeys) walk(k);
  let raw = 0;
  let gz = 0;
  const files = [];
  for (const key of seen) {
    const file = manifest[key]?.file;
    if (!file || !file.endsWith('.js')) continue;
    const buf = readFileSync(path.join(dist, file));
    const g = gzipSync(buf, { level: 9 }).length;
    raw += buf.length;
    gz += g;
    files.push({ file, gzipKB: +(g / 1024).toFixed(2) });
  }
  return { files, rawKB: +(raw / 1024).toFixed(2), gzipKB: +(gz / 1024).toFixed(2) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const r = firstRouteJs(process.argv.slice(2));
  for (const f of r.files) console.log(`  ${f.file}  ${f.gzipKB} KB gzip`);
  console.log(`first-route JS: ${r.gzipKB} KB gzip (${r.rawKB} KB raw); budget 110 KB`);
  if (r.gzipKB > 110) process.exitCode = 1;
}
