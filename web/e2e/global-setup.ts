import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Starts every run with an empty screenshots folder, so no stale screen is
 * left behind, and a fresh folder of axe markers (helpers.ts, firstToScan)
 * that the workers inherit through the environment; the returned function
 * removes it when the run ends.
 */
export default function globalSetup(): () => void {
  const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'screenshots');
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(dir)) if (/\.(png|jpe?g)$/.test(f)) rmSync(path.join(dir, f));
  const scanned = mkdtempSync(path.join(os.tmpdir(), 'chairside-axe-'));
  process.env.E2E_AXE_SCANNED = scanned;
  return () => rmSync(scanned, { recursive: true, force: true });
}
