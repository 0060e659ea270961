import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FieldDefinition, FieldError, FieldGroupRule } from './api/types';
import { validateApplicantValues, validateValue } from './validation';

/*
 * The conformance cases of validate/testdata/conformance.json, run through
 * the browser's validator; validate/conformance_test.go runs the same cases
 * through the server's, so both give the same message for the same input.
 * The file's "about" member describes a case. A case without group rules or
 * other fields goes through validateValue, one with them through
 * validateApplicantValues with the case's field as the only definition (every
 * error must then be on that field); Field cases also go through
 * validateApplicantValues, which must agree. A case this test cannot run is
 * a failure, never a skip.
 */

const FILE = path.join(import.meta.dirname, '../../../validate/testdata/conformance.json');
/** The least the file may hold (issue 8 asks for 300), as validate/conformance_test.go. */
const MIN_CASES = 300;
const CASE_KEYS = new Set(['name', 'field', 'value', 'others', 'groupRules', 'today', 'expected']);
const FIELD_KEYS = new Set(['id', 'path', 'name', 'label', 'hint', 'type', 'autocomplete', 'inputMode', 'group', 'readOnly', 'rules']);

interface Case {
  name: string;
  field: FieldDefinition;
  value: string;
  others?: Record<string, string>;
  groupRules?: FieldGroupRule[];
  today: string;
  expected: string | null;
}

const show = (m: string | null) => (m === null ? 'no message' : JSON.stringify(m));

/** check returns why a case cannot be run, or null when it is well formed. */
function check(c: Record<string, unknown>): string | null {
  for (const k of Object.keys(c)) if (!CASE_KEYS.has(k)) return `unknown member ${k}`;
  if (typeof c.name !== 'string' || c.name === '') return 'no name';
  const field = c.field as Record<string, unknown> | undefined;
  if (!field || typeof field !== 'object') return 'no field';
  for (const k of Object.keys(field)) if (!FIELD_KEYS.has(k)) return `unknown field member ${k}`;
  if (typeof field.id !== 'string' || !field.id || typeof field.type !== 'string' || !field.type || typeof field.rules !== 'object' || !field.rules) {
    return 'the field needs an id, a type and rules';
  }
  if (typeof c.value !== 'string') return 'value must be a string';
  if (!('expected' in c) || !(c.expected === null || (typeof c.expected === 'string' && c.expected !== ''))) {
    return 'expected must be a message or null';
  }
  if (typeof c.today !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(c.today)) return 'today must be YYYY-MM-DD';
  if (c.others !== undefined) {
    if (typeof c.others !== 'object' || c.others === null) return 'others must be an object';
    for (const [k, v] of Object.entries(c.others)) if (typeof v !== 'string') return `others.${k} must be a string`;
    if (Object.hasOwn(c.others, field.id)) return 'others repeats the field';
  }
  if (c.groupRules !== undefined && !Array.isArray(c.groupRules)) return 'groupRules must be an array';
  return null;
}

/** onlyError: the message of the one error on field id, null for none; throws when there are others. */
function onlyError(id: string, errors: FieldError[]): string | null {
  if (errors.length > 1 || (errors.length === 1 && errors[0]!.field !== id)) throw new Error(`unexpected errors ${JSON.stringify(errors)}`);
  return errors[0]?.message ?? null;
}

/** run gives the browser's message for a case. */
function run(c: Case): string | null {
  const [y, m, d] = c.today.split('-').map(Number) as [number, number, number];
  const now = new Date(y, m - 1, d, 12);
  if (now.getFullYear() !== y || now.getMonth() !== m - 1 || now.getDate() !== d) throw new Error('today is no day');
  const values = { ...c.others, [c.field.id]: c.value };
  if (!c.groupRules?.length && c.others === undefined) {
    const got = validateValue(c.field, c.value, now);
    const viaApplicant = onlyError(c.field.id, validateApplicantValues([c.field], [], values, now));
    if (viaApplicant !== got) throw new Error(`validateApplicantValues answers ${show(viaApplicant)}, validateValue ${show(got)}`);
    return got;
  }
  return onlyError(c.field.id, validateApplicantValues([c.field], c.groupRules ?? [], values, now));
}

describe('validation conformance with the server (validate/testdata/conformance.json)', () => {
  it('gives every case its expected message', () => {
    const file = JSON.parse(readFileSync(FILE, 'utf8')) as { about: string[]; cases: Record<string, unknown>[] };
    expect(Object.keys(file).sort()).toEqual(['about', 'cases']);
    expect(file.cases.length).toBeGreaterThanOrEqual(MIN_CASES);

    const failures: string[] = [];
    const names = new Set<string>();
    let ran = 0;
    file.cases.forEach((raw, i) => {
      const label = `case ${i} ${JSON.stringify(raw.name)}`;
      let problem = check(raw);
      if (!problem && names.has(raw.name as string)) problem = 'another case has the same name';
      names.add(raw.name as string);
      if (problem) {
        failures.push(`${label} cannot be run: ${problem}`);
        return;
      }
      const c = raw as unknown as Case;
      let got: string | null;
      try {
        got = run(c);
      } catch (e) {
        failures.push(`${label} cannot be run: ${(e as Error).message}`);
        return;
      }
      ran++;
      if (got !== c.expected) failures.push(`${label}: field ${c.field.type} ${JSON.stringify(c.value)}: got ${show(got)}, want ${show(c.expected)}`);
    });
    console.log(`conformance: ${ran} cases`);
    expect(failures).toEqual([]);
    expect(ran).toBe(file.cases.length);
  });
});
