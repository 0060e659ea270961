import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENTITY_KEY } from './helpers';

/*
 * Staff accounts on the test server of this run (playwright.config.ts): its
 * SQLite file and binary. An account is added with the operator's own
 * command, `chairside staff add`, against that database while it serves
 * (docs/behaviour.md, "The office side"); the email is new on every call.
 */
const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DB = `${process.env.TMPDIR ?? '/tmp'}/chairside-e2e.db`;
const BIN = path.resolve(WEB, process.env.CHAIRSIDE_BIN ?? '../bin/chairside');

/** STAFF_PASSWORD is every added account's password. */
export const STAFF_PASSWORD = 'a long office password';

/** addStaff adds an office manager's account (the command's default role) at a demo office, Bright Smile Dental unless told, and answers its email. */
export function addStaff(entityKey = ENTITY_KEY): string {
  const email = `desk-${randomBytes(4).toString('hex')}@office.example`;
  execFileSync(BIN, ['staff', 'add', '-db', DB, '-entity-key', entityKey, '-email', email], { input: `${STAFF_PASSWORD}\n`, cwd: WEB });
  return email;
}
