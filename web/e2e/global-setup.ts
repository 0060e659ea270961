import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Starts every run with an empty screenshots folder, so no stale screen is left behind. */
export default function globalSetup(): void {
  const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'screenshots');
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(dir)) if (/\.(png|jpe?g)$/.test(f)) rmSync(path.join(dir, f));
}
