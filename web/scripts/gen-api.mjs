// Generates src/lib/api/schema.d.ts from ../api/openapi.yaml with openapi-typescript.
// When the contract is not there (yet), the committed schema.d.ts is kept as it is.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const web = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const spec = path.resolve(web, '../api/openapi.yaml');
const out = path.resolve(web, 'src/lib/api/schema.d.ts');
if (!existsSync(spec)) {
  console.warn(`gen:api: ${spec} not found; keeping ${path.relative(web, out)}`);
  process.exit(0);
}
const bin = path.resolve(web, 'node_modules/.bin/openapi-typescript');
const r = spawnSync(bin, [spec, '-o', out], { stdio: 'inherit' });
process.exit(r.status ?? 1);
