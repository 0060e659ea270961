// Generates src/lib/api/schema.d.ts from ../api/openapi.yaml with openapi-typescript,
// under a header that marks it as generated.
//   node scripts/gen-api.mjs          write it (npm run gen:api, before every build)
//   node scripts/gen-api.mjs --check  fail when the file differs from what the contract gives (npm run lint)
// When the contract is not there (yet), the committed schema.d.ts is kept as it is.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const HEADER = [
  '// GENERATED FILE: do not edit. Made from ../api/openapi.yaml by `npm run gen:api` (scripts/gen-api.mjs);',
  '// `npm run lint` fails when it is stale against the contract. ESLint and Prettier skip it.',
  '',
].join('\n');

const check = process.argv.includes('--check');
const web = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const spec = path.resolve(web, '../api/openapi.yaml');
const out = path.resolve(web, 'src/lib/api/schema.d.ts');
const rel = path.relative(web, out);
if (!existsSync(spec)) {
  console.warn(`gen:api: ${spec} not found; keeping ${rel}`);
  process.exit(check ? 1 : 0);
}

const dir = mkdtempSync(path.join(tmpdir(), 'chairside-gen-api-'));
try {
  const tmp = path.join(dir, 'schema.d.ts');
  const bin = path.resolve(web, 'node_modules/.bin/openapi-typescript');
  const r = spawnSync(bin, [spec, '-o', tmp], { stdio: check ? ['ignore', 'ignore', 'inherit'] : 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
  const generated = HEADER + readFileSync(tmp, 'utf8');
  if (check) {
    const current = existsSync(out) ? readFileSync(out, 'utf8') : '';
    if (current !== generated) {
      console.error(`${rel} is stale against ../api/openapi.yaml: run \`npm run gen:api\` and commit the result.`);
      process.exit(1);
    }
    console.log(`${rel} matches ../api/openapi.yaml.`);
  } else {
    writeFileSync(out, generated);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
