import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { ENTITY_KEY, Journey } from './helpers';
import { PORT } from './prod';

/*
 * The backup the manager hears about (docs/operations.md, "Backups"): a
 * server of its own, streaming its database to S3-compatible storage that
 * cannot be reached, tells the office manager on the day's screen, once
 * the backup has failed for 3 s (-backup-behind-after), that the backup is
 * behind, with what the server says folded away; patients and staff work
 * on meanwhile.
 */

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.resolve(WEB, process.env.CHAIRSIDE_BIN ?? '../bin/chairside');
const DIR = `${process.env.TMPDIR ?? '/tmp'}/chairside-e2e-backup`;
const DB = `${DIR}/chairside.db`;
const KEYS = `${DIR}/keys.json`;
const BASE = `http://127.0.0.1:${PORT + 2}`;
const EMAIL = 'manager@backup.example';
const PASSWORD = 'a long office password';

let server: ChildProcess | undefined;

test.beforeAll(async () => {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  // Port 9 on this machine refuses connections: the replica is out of reach.
  server = spawn(
    BIN,
    [
      'serve',
      '-env',
      'test',
      '-addr',
      `127.0.0.1:${PORT + 2}`,
      '-db',
      DB,
      '-key-file',
      KEYS,
      '-backup-behind-after',
      '3s',
      '-backup-to',
      's3://practice/chairside?endpoint=http://127.0.0.1:9&region=us-east-1',
    ],
    { env: { ...process.env, AWS_ACCESS_KEY_ID: 'e2e', AWS_SECRET_ACCESS_KEY: 'e2e', AWS_CA_BUNDLE: '' }, stdio: 'ignore' },
  );
  await expect.poll(async () => (await fetch(`${BASE}/api/v1/internal/version`).catch(() => null))?.status, { timeout: 30_000 }).toBe(200);
  execFileSync(BIN, ['staff', 'add', '-db', DB, '-key-file', KEYS, '-entity-key', ENTITY_KEY, '-email', EMAIL], {
    input: `${PASSWORD}\n`,
    cwd: WEB,
  });
});

test.afterAll(() => {
  server?.kill('SIGTERM');
});

test('a manager sees that the backup is behind when its storage cannot be reached', async ({ page }, info) => {
  test.setTimeout(90_000);
  const j = new Journey(page, info, 'backup');
  j.allow(/status of 401/); // signed out, the session check answers 401
  await j.init();
  await page.goto(`${BASE}/office`);
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('link', { name: 'Invite a patient' })).toBeVisible();

  // The banner asks when the screen opens and every minute; a reload asks again.
  const banner = page.getByRole('status').filter({ hasText: 'The backup of this office’s records is behind.' });
  await expect(async () => {
    await page.reload();
    await expect(banner).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 60_000, intervals: [2_000] });
  await expect(banner).toContainText('No copy has reached s3://practice/chairside yet.');
  await expect(banner).toContainText('Tell whoever looks after this computer');
  await banner.getByText('What the server says').click();
  await expect(banner.locator('code')).not.toBeEmpty();
  await j.screen('behind');

  // The office works on: the manager can still invite a patient.
  await page.getByRole('link', { name: 'Invite a patient' }).click();
  await expect(banner).toBeVisible();
});
