import type { FieldDefinition, FieldError, FieldGroupRule, Rule } from './api/types';
import { parseIsoDate, parseUsDate, type DayDate } from './dates';
import { DISPOSABLE_EMAIL_DOMAINS, EMAIL_PATTERN, GROUP_RULES, MESSAGES, PO_BOX_PATTERN, STATES, ZIP_PREFIXES } from './validationTables.generated';

/*
 * The browser's validator. It applies the rules the server enforces
 * (validate/validate.go, validate/checks.go; in words, docs/behaviour.md,
 * "Validation") so the patient hears of a problem before submitting, with
 * the server's words. Two layers:
 *
 *   - validateValue, validateApplicantValues and checkGroupRule check values
 *     in the API's form (digits, cents, YYYY-MM-DD), exactly as the server
 *     does; validation.conformance.test.ts runs the cases of
 *     validate/testdata/conformance.json through them, and the Go tests run
 *     the same cases through the server;
 *   - validateField and validateForm read what a person typed (display form:
 *     "(312) 555-0100", "03/20/2026", "4,500.00"), turn it into the API's form
 *     as toApiValue does, and check that.
 *
 * The data both sides need (ZIP prefixes, states, throw-away email domains,
 * patterns, fixed messages, group rule ids) comes from
 * validationTables.generated.ts, written from the Go declarations.
 */

/** The messages the server answers; the fixed ones come from the server's own list. */
export const messages = {
  invalid: MESSAGES.invalid,
  required: MESSAGES.required,
  requireTrue: 'Must be checked',
  minAge: (min: number) => `Must be at least ${min} years old`,
  maxAge: (max: number) => `Must be at most ${max} years old`,
  minLength: (min: number | bigint) => `Must be at least ${min} characters`,
  maxLength: (max: number | bigint) => `Must be at most ${max} characters`,
  minValue: (min: number | bigint | string) => `Must be at least ${min}`,
  maxValue: (max: number | bigint | string) => `Must be at most ${max}`,
  notInFuture: MESSAGES.notInFuture,
  notInPast: MESSAGES.notInPast,
  noPoBox: MESSAGES.noPoBox,
  email: MESSAGES.email,
  emailUnsupported: MESSAGES.emailUnsupported,
  phone: (label: string) => `${label} is not a valid phone number`,
  zip: MESSAGES.zipState,
  requireOne: MESSAGES.requireOne,
  /** The server answers the same words for the same input (a validation_error fieldErrors entry). */
  wholeNumber: MESSAGES.wholeNumber,
  chars: (bad: string[], allowed: string) => `These characters are not allowed: ${bad.join(' ')}. Use only ${allowed}.`,
};

export { GROUP_RULES };

export const KNOWN_FIELD_TYPES = [
  'checkbox',
  'currency',
  'date',
  'local_date',
  'dynamicPhone',
  'email',
  'number',
  'phone',
  'radio',
  'select',
  'state',
  'ssn',
  'text',
  'zipCode',
] as const;
export type FieldType = (typeof KNOWN_FIELD_TYPES)[number];

/** fieldType resolves a field's type, falling back to text with a warning (api/openapi.yaml, FieldDefinition.type). */
export function fieldType(def: Pick<FieldDefinition, 'type' | 'id'>, warn: (m: string) => void = console.warn): FieldType {
  if ((KNOWN_FIELD_TYPES as readonly string[]).includes(def.type)) return def.type as FieldType;
  warn(`Unknown field type "${def.type}" for ${def.id}; showing a text field`);
  return 'text';
}

/**
 * Applicant fields the contract (api/openapi.yaml, Applicant) types as
 * integer counts, treated as whole numbers even if a definition gives them a
 * text type.
 */
const WHOLE_NUMBER_IDS = new Set(['monthsEmployed', 'housingMonths']);

/**
 * isWholeNumberField: a "number" field is an integer count (the server reads
 * every one as an integer, validate/validate.go), as are the counts above.
 */
export function isWholeNumberField(def: Pick<FieldDefinition, 'type' | 'id' | 'path'>): boolean {
  const type = fieldType(def, () => undefined);
  if (type === 'number') return true;
  return type === 'text' && (WHOLE_NUMBER_IDS.has(def.id) || WHOLE_NUMBER_IDS.has(def.path));
}

export type WholeNumber = { ok: true; value: number } | { ok: false; reason: 'notWhole' | 'invalid' };

/**
 * parseWholeNumber reads what a person typed into a whole-number field.
 * Digits (an optional sign, thousands commas) give the number; anything with
 * a decimal point ("2.5", "2.0", ".5") is not a whole number and is never
 * rounded or cut; anything else ("1e3", "two") is invalid.
 */
export function parseWholeNumber(typed: string): WholeNumber {
  const s = typed.trim().replace(/,/g, '');
  if (/^[+-]?\d+$/.test(s)) {
    const value = Number(s);
    return Number.isSafeInteger(value) ? { ok: true, value: value === 0 ? 0 : value } : { ok: false, reason: 'invalid' };
  }
  if (DECIMAL.test(s)) return { ok: false, reason: 'notWhole' };
  return { ok: false, reason: 'invalid' };
}

export function isRequired(def: FieldDefinition): boolean {
  return Boolean(def.rules && def.rules.required != null);
}

export const digits = (v: string) => v.replace(/\D/g, '');

export const EMAIL = new RegExp(EMAIL_PATTERN, 'u');
export const ZIP = /^[0-9]{5}(-[0-9]{4})?$/;
const PO_BOX = new RegExp(PO_BOX_PATTERN, 'iu');
const INTEGER = /^[+-]?[0-9]+$/;
/** A number written with a decimal point: "2.5", "2.0", "24.", ".5". */
const DECIMAL = /^[+-]?([0-9]+\.[0-9]*|\.[0-9]+)$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** The US states and DC as [value, label], for the state select (catalogue.States). */
export const US_STATES: [string, string][] = STATES.map(([value, label]) => [value, label]);

// ---------------------------------------------------------------- the server's checks

/** The characters Go's strings.TrimSpace removes: a value of only these is empty. */
const SPACES = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a,
  0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);

/** isBlank: nothing but spaces, as the server counts them (a byte-order mark is not a space). */
export function isBlank(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (!SPACES.has(s.charCodeAt(i))) return false;
  return true;
}

/**
 * hasControlOrBroken: a control character (U+0000–U+001F, U+007F–U+009F) or
 * a lone surrogate, the browser's kind of broken text; the server refuses
 * both (and broken UTF-8) as "Invalid Field".
 */
export function hasControlOrBroken(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return true;
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return true;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return true;
  }
  return false;
}

/** isSsn: 9 digits that could have been issued (no area 000, 666 or 9xx, group 00 or serial 0000). */
export function isSsn(s: string): boolean {
  if (!/^[0-9]{9}$/.test(s)) return false;
  const area = s.slice(0, 3);
  return area !== '000' && area !== '666' && s[0] !== '9' && s.slice(3, 5) !== '00' && s.slice(5) !== '0000';
}

/** isPhone: 10 digits of the North American plan: area code and exchange not starting with 0 or 1, no N11 area code. */
export function isPhone(s: string): boolean {
  if (!/^[0-9]{10}$/.test(s)) return false;
  return s[0]! >= '2' && s[3]! >= '2' && s.slice(1, 3) !== '11';
}

/** emailProblem: null for a good address, else "Email is invalid" or, for a throw-away mailbox, "This email is not supported". */
export function emailProblem(addr: string): string | null {
  if (addr.length > 254 || !EMAIL.test(addr)) return MESSAGES.email;
  const at = addr.indexOf('@');
  const local = addr.slice(0, at);
  const domain = addr.slice(at + 1);
  if (local.length > 64 || local.startsWith('.') || local.endsWith('.') || local.includes('..')) return MESSAGES.email;
  if (DISPOSABLE_EMAIL_DOMAINS.includes(domain.toLowerCase())) return MESSAGES.emailUnsupported;
  return null;
}

/** isState: one of the 50 states or DC, by upper-case abbreviation. */
export function isState(s: string): boolean {
  return Object.hasOwn(ZIP_PREFIXES, s);
}

/** zipForState: the ZIP (5 or 5+4 digits) lies in the state, by its first three digits. */
export function zipForState(zip: string, state: string): boolean {
  if (!ZIP.test(zip) || !isState(state)) return false;
  const prefix = Number(zip.slice(0, 3));
  return ZIP_PREFIXES[state]!.some(([lo, hi]) => prefix >= lo && prefix <= hi);
}

/** isPoBox: an address line starting with a P.O. box variant ("PO Box 12", "P.O.B. 4", "PO 12", "Box 7"…). */
export function isPoBox(line: string): boolean {
  return PO_BOX.test(line);
}

/** parseDay reads exactly YYYY-MM-DD as a real calendar day (years 0000–9999), as the server does. */
export function parseDay(s: string): DayDate | null {
  const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(s);
  if (!m) return null;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return null;
  return { y, m: mo, d };
}

function daysInMonth(y: number, m: number): number {
  if (m === 2) return y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(m) ? 30 : 31;
}

/** The calendar day of now in the browser's time zone, which the server is told (X-Time-Zone). */
function dayOf(now: Date): DayDate {
  return { y: now.getFullYear(), m: now.getMonth() + 1, d: now.getDate() };
}

function compare(a: DayDate, b: DayDate): number {
  return a.y - b.y || a.m - b.m || a.d - b.d;
}

/** Whole years from birth to today; a 29 February birthday comes round on 1 March in other years. */
function age(birth: DayDate, today: DayDate): number {
  let years = today.y - birth.y;
  if (today.m < birth.m || (today.m === birth.m && today.d < birth.d)) years--;
  return years;
}

/** Days since 1970-01-01, for any year 0000–9999. */
function dayNumber(d: DayDate): number {
  const t = new Date(0);
  t.setUTCFullYear(d.y, d.m - 1, d.d);
  return Math.round(t.getTime() / 86400000);
}

const usDay = (d: DayDate) => `${String(d.m).padStart(2, '0')}/${String(d.d).padStart(2, '0')}/${String(d.y).padStart(4, '0')}`;

/**
 * payDatesFit: the days from the last to the next payday fit the pay
 * frequency — weekly 7, bi_weekly 14, semi_monthly 14 to 17, monthly 28 to
 * 31. An unknown frequency is not judged here (its own options refuse it).
 */
export function payDatesFit(frequency: string, previous: DayDate, next: DayDate): boolean {
  const days = dayNumber(next) - dayNumber(previous);
  switch (frequency) {
    case 'weekly':
      return days === 7;
    case 'bi_weekly':
      return days === 14;
    case 'semi_monthly':
      return days > 13 && days < 18;
    case 'monthly':
      return days > 27 && days < 32;
  }
  return true;
}

/** dollars shows cents as the server does: 450000 → "$4,500.00", -12345 → "-$123.45". */
function dollars(cents: bigint): string {
  const sign = cents < 0n ? '-' : '';
  const abs = cents < 0n ? -cents : cents;
  const whole = (abs / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}$${whole}.${(abs % 100n).toString().padStart(2, '0')}`;
}

const big = (n: number | null | undefined): bigint | null => (typeof n === 'number' && Number.isInteger(n) ? BigInt(n) : null);

const compiledChars = new Map<string, RegExp | null>();

/**
 * invalidChars returns the distinct characters of value outside a validChars
 * set ("\\p{L}\\p{M} '’.-": the inside of a character class, read alike by
 * Go and by a JavaScript RegExp with the u flag), in order of first
 * appearance. A set that does not compile refuses every character, as on
 * the server.
 */
export function invalidChars(value: string, chars: string): string[] {
  let re = compiledChars.get(chars);
  if (re === undefined) {
    try {
      re = new RegExp(`[^${chars}]`, 'u');
    } catch {
      re = null;
    }
    compiledChars.set(chars, re);
  }
  const bad: string[] = [];
  for (const c of value) {
    if (bad.includes(c)) continue;
    if (re === null || re.test(c)) bad.push(c);
  }
  return bad;
}

const CHAR_WORDS = new Map([
  [' ', 'spaces'],
  ["'", 'apostrophes'],
  ['\u2019', 'apostrophes'],
  ['.', 'periods'],
  [',', 'commas'],
  ['-', 'hyphens'],
  ['#', '#'],
  ['/', '/'],
  ['&', '&'],
  ['(', 'brackets'],
  [')', 'brackets'],
]);

/**
 * describeChars says in words which characters a validChars set allows:
 * "\\p{L}\\p{M} '’.-" → "letters, spaces, apostrophes, periods and hyphens".
 * A set with something it cannot name is shown as it is.
 */
export function describeChars(chars: string): string {
  const words: string[] = [];
  const add = (w: string) => {
    if (!words.includes(w)) words.push(w);
  };
  const rs = [...chars];
  const cp = (i: number) => rs[i]!.codePointAt(0)!;
  for (let i = 0; i < rs.length; i++) {
    if (rs[i] === '\\' && i + 4 < rs.length && rs[i + 1] === 'p' && rs[i + 2] === '{' && rs[i + 4] === '}') {
      const cls = rs[i + 3];
      if (cls === 'L') add('letters');
      else if (cls === 'N') add('digits');
      else if (cls !== 'M') return chars; // combining marks belong to letters
      i += 4;
    } else if (i + 2 < rs.length && rs[i + 1] === '-') {
      const lo = cp(i);
      const hi = cp(i + 2);
      if ((lo >= 0x41 && hi <= 0x5a) || (lo >= 0x61 && hi <= 0x7a)) add('letters');
      else if (lo >= 0x30 && hi <= 0x39) add('digits');
      else return chars;
      i += 2;
    } else {
      const w = CHAR_WORDS.get(rs[i]!);
      if (!w) return chars;
      add(w);
    }
  }
  if (words.length === 0) return chars;
  if (words.length === 1) return words[0]!;
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

type Rules = Record<string, Rule | null | undefined>;
const has = (rules: Rules, id: string) => Object.hasOwn(rules, id);

/**
 * validateValue checks one value in the API's form (digits, cents and counts
 * as decimal integers, YYYY-MM-DD) against its field definition, as the
 * server does (validate.Field): the first broken rule's message, or null.
 * A rule's own message, when the definition has one, wins.
 */
export function validateValue(def: FieldDefinition, raw: string, now: Date = new Date()): string | null {
  const rules: Rules = def.rules ?? {};
  const msg = (id: string, fallback: string) => rules[id]?.message || fallback;
  if (isBlank(raw)) return has(rules, 'required') ? msg('required', MESSAGES.required) : null;
  if (hasControlOrBroken(raw)) return MESSAGES.invalid;

  switch (def.type) {
    case 'ssn':
      if (!isSsn(raw)) return MESSAGES.invalid;
      break;
    case 'phone':
    case 'dynamicPhone':
      if (!isPhone(raw)) return messages.phone(def.label || 'Phone');
      break;
    case 'email': {
      const problem = emailProblem(raw);
      if (problem) return problem;
      break;
    }
    case 'zipCode':
      if (!ZIP.test(raw)) return MESSAGES.invalid;
      break;
    case 'state':
      if (!isState(raw)) return MESSAGES.invalid;
      break;
    case 'local_date':
    case 'date': {
      const problem = checkDate(rules, raw, now, msg);
      if (problem) return problem;
      break;
    }
    case 'currency':
    case 'number':
      return checkInteger(def.type, rules, raw, msg);
  }

  // Options apply to whatever type carries them: select, radio, state.
  const options = rules.validOptions?.options;
  if (options && options.length > 0 && !options.some((o) => o.value === raw)) return msg('validOptions', MESSAGES.invalid);
  const length = BigInt([...raw].length); // characters, not UTF-16 units or bytes
  const minLength = big(rules.minLength?.min);
  const maxLength = big(rules.maxLength?.max);
  if (minLength !== null && length < minLength) return msg('minLength', messages.minLength(minLength));
  if (maxLength !== null && length > maxLength) return msg('maxLength', messages.maxLength(maxLength));
  if (has(rules, 'noPoBox') && isPoBox(raw)) return msg('noPoBox', MESSAGES.noPoBox);
  const chars = rules.validChars?.chars;
  if (chars) {
    const bad = invalidChars(raw, chars);
    if (bad.length) return msg('validChars', messages.chars(bad, describeChars(chars)));
  }
  return null;
}

function checkInteger(type: string, rules: Rules, raw: string, msg: (id: string, fallback: string) => string): string | null {
  if (!INTEGER.test(raw)) return DECIMAL.test(raw) ? MESSAGES.wholeNumber : MESSAGES.invalid;
  const v = BigInt(raw);
  if (v < INT64_MIN || v > INT64_MAX) return MESSAGES.invalid;
  const show = (x: bigint) => (type === 'currency' ? dollars(x) : x.toString());
  const min = big(rules.min?.min);
  const max = big(rules.max?.max);
  if (min !== null && v < min) return msg('min', messages.minValue(show(min)));
  if (max !== null && v > max) return msg('max', messages.maxValue(show(max)));
  return null;
}

function checkDate(rules: Rules, raw: string, now: Date, msg: (id: string, fallback: string) => string): string | null {
  const d = parseDay(raw);
  if (!d) return MESSAGES.invalid;
  const today = dayOf(now);
  const minAge = rules.minAge?.age ?? 0;
  const maxAge = rules.maxAge?.age ?? 0;
  if (minAge > 0 && age(d, today) < minAge) return msg('minAge', messages.minAge(minAge));
  if (maxAge > 0 && age(d, today) > maxAge) return msg('maxAge', messages.maxAge(maxAge));
  const bound = (date: string | undefined) => (date === 'today' ? today : date ? parseDay(date) : null);
  const min = bound(rules.minDate?.date);
  if (min && compare(d, min) < 0) {
    return msg('minDate', rules.minDate?.date === 'today' ? MESSAGES.notInPast : messages.minValue(usDay(min)));
  }
  const max = bound(rules.maxDate?.date);
  if (max && compare(d, max) > 0) {
    return msg('maxDate', rules.maxDate?.date === 'today' ? MESSAGES.notInFuture : messages.maxValue(usDay(max)));
  }
  return null;
}

/**
 * checkGroupRule checks one field-group rule over values in the API's form,
 * as the server does: the field to blame and the message, or null when the
 * rule holds, cannot be judged (a date that is no date), is of a kind this
 * browser does not know, or names a field in bad (a field with its own
 * error, which says more).
 */
export function checkGroupRule(g: FieldGroupRule, value: (id: string) => string, bad: ReadonlySet<string> = new Set()): FieldError | null {
  const fields = g.fields ?? [];
  if (fields.some((f) => bad.has(f))) return null;
  const message = (fallback: string) => g.message || fallback;
  switch (g.rule) {
    case GROUP_RULES.requireOne:
      if (fields.length === 0 || fields.some((f) => !isBlank(value(f)))) return null;
      return { field: fields[0]!, message: message(MESSAGES.requireOne) };
    case GROUP_RULES.payDates: {
      if (fields.length !== 3) return null;
      const previous = parseDay(value(fields[1]!));
      const next = parseDay(value(fields[2]!));
      if (!previous || !next || payDatesFit(value(fields[0]!), previous, next)) return null;
      return { field: fields[2]!, message: message(MESSAGES.invalid) };
    }
    case GROUP_RULES.zipState: {
      if (fields.length !== 2) return null;
      const zip = value(fields[0]!);
      const state = value(fields[1]!);
      if (isBlank(zip) || isBlank(state) || zipForState(zip, state)) return null;
      return { field: fields[0]!, message: message(MESSAGES.zipState) };
    }
  }
  return null;
}

/**
 * validateApplicantValues checks an applicant's values in the API's form
 * against field definitions and then field-group rules, as the server does
 * (validate.Applicant): the errors in that order, named by field id, none for
 * a field that passes. Values are read by field id; a missing one is empty.
 */
export function validateApplicantValues(
  defs: FieldDefinition[],
  groups: FieldGroupRule[],
  values: Readonly<Record<string, string | undefined>>,
  now: Date = new Date(),
): FieldError[] {
  const errors: FieldError[] = [];
  const bad = new Set<string>();
  const value = (id: string) => (Object.hasOwn(values, id) ? (values[id] ?? '') : '');
  for (const def of defs) {
    const message = validateValue(def, value(def.id), now);
    if (message) {
      bad.add(def.id);
      errors.push({ field: def.id, message });
    }
  }
  for (const g of groups) {
    const e = checkGroupRule(g, value, bad);
    if (e) {
      bad.add(e.field);
      errors.push(e);
    }
  }
  return errors;
}

// ---------------------------------------------------------------- what a person typed

export function parseFieldDate(value: string): DayDate | null {
  return parseUsDate(value) ?? parseIsoDate(value);
}

/** typedCents reads dollars as typed ("4,500.5", "$4500", "-20") into cents, or null. */
function typedCents(typed: string): number | null {
  const s = typed.replace(/[$,\s]/g, '');
  if (!/^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)$/.test(s)) return null;
  const cents = Math.round(Number(s) * 100);
  return Number.isSafeInteger(cents) ? (cents === 0 ? 0 : cents) : null;
}

const plainText = (s: string) =>
  s
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201C\u201D]/g, '"')
    .replace(/[\u2013\u2014]/g, '-')
    .replace(/\u2026/g, '...');

const isoDay = (d: DayDate) => `${String(d.y).padStart(4, '0')}-${String(d.m).padStart(2, '0')}-${String(d.d).padStart(2, '0')}`;

type Typed = { ok: true; value: string } | { ok: false; message: string };

/** typedToApi turns a trimmed, non-empty typed value into the API's form as text, or the message for one that cannot be. */
function typedToApi(def: FieldDefinition, value: string): Typed {
  const type = isWholeNumberField(def) ? 'number' : fieldType(def, () => undefined);
  switch (type) {
    case 'number': {
      const parsed = parseWholeNumber(value);
      if (!parsed.ok) return { ok: false, message: parsed.reason === 'notWhole' ? MESSAGES.wholeNumber : MESSAGES.invalid };
      return { ok: true, value: String(parsed.value) };
    }
    case 'currency': {
      const cents = typedCents(value);
      return cents === null ? { ok: false, message: MESSAGES.invalid } : { ok: true, value: String(cents) };
    }
    case 'date':
    case 'local_date': {
      const d = parseFieldDate(value);
      return d ? { ok: true, value: isoDay(d) } : { ok: false, message: MESSAGES.invalid };
    }
    case 'ssn':
    case 'phone':
    case 'dynamicPhone':
      return { ok: true, value: digits(value) };
    case 'state':
      return { ok: true, value: value.toUpperCase() };
    default:
      return { ok: true, value: plainText(value) };
  }
}

/**
 * validateField checks what a person typed into one field (display form)
 * and returns the first error message, or null: the value is trimmed and
 * turned into what would be sent (toApiValue), then checked as the server
 * will (validateValue). A rule's own message, when the server sends one, wins.
 */
export function validateField(def: FieldDefinition, raw: unknown, now: Date = new Date()): string | null {
  const rules = def.rules ?? {};
  const msg = (id: string, fallback: string) => rules[id]?.message || fallback;
  if (fieldType(def, () => undefined) === 'checkbox') {
    if (isRequired(def) && raw !== true) return msg('required', messages.requireTrue);
    return null;
  }
  const value = typeof raw === 'string' ? raw.trim() : raw == null ? '' : String(raw);
  if (value === '') return isRequired(def) ? msg('required', MESSAGES.required) : null;
  const api = typedToApi(def, value);
  return api.ok ? validateValue(def, api.value, now) : api.message;
}

/**
 * validateForm checks a whole form of typed values: every field as
 * validateField does, then the field-group rules (at least one phone, ZIP in
 * the state, pay dates that fit the pay frequency) over the values as they
 * would be sent, as the server does. Errors are named by field id.
 */
export function validateForm(
  defs: FieldDefinition[],
  groups: FieldGroupRule[],
  typed: Readonly<Record<string, unknown>>,
  now: Date = new Date(),
): FieldError[] {
  const errors: FieldError[] = [];
  const bad = new Set<string>();
  for (const def of defs) {
    const message = validateField(def, typed[def.id], now);
    if (message) {
      bad.add(def.id);
      errors.push({ field: def.id, message });
    }
  }
  return errors.concat(groupRuleErrors(defs, groups, typed, bad));
}

/**
 * groupRuleErrors checks the field-group rules over a form of typed values,
 * converted as they would be sent; a rule naming a field in bad (a field
 * with an error of its own) is not judged. Errors are named by field id.
 */
export function groupRuleErrors(
  defs: FieldDefinition[],
  groups: FieldGroupRule[],
  typed: Readonly<Record<string, unknown>>,
  bad: ReadonlySet<string> = new Set(),
): FieldError[] {
  const byId = new Map(defs.map((d) => [d.id, d]));
  const blamed = new Set(bad);
  const value = (id: string): string => {
    const raw = typed[id];
    const s = typeof raw === 'string' ? raw.trim() : raw == null ? '' : String(raw);
    const def = byId.get(id);
    if (!def || s === '') return s;
    const api = typedToApi(def, s);
    return api.ok ? api.value : s;
  };
  const errors: FieldError[] = [];
  for (const g of groups) {
    const e = checkGroupRule(g, value, blamed);
    if (e) {
      blamed.add(e.field);
      errors.push(e);
    }
  }
  return errors;
}

/**
 * toApiValue converts a typed value into the API's form (cents, ISO dates,
 * digits, whole numbers). A whole-number field holding anything but a whole
 * number answers undefined: it is never sent as some other number.
 */
export function toApiValue(def: FieldDefinition, raw: unknown): unknown {
  const type = isWholeNumberField(def) ? 'number' : fieldType(def, () => undefined);
  if (type === 'checkbox') return raw === true;
  const value = typeof raw === 'string' ? raw.trim() : raw;
  if (value === '' || value == null) return undefined;
  const s = String(value);
  switch (type) {
    case 'ssn':
    case 'phone':
    case 'dynamicPhone':
      return digits(s);
    case 'currency':
      return typedCents(s) ?? undefined;
    case 'number': {
      const parsed = parseWholeNumber(s);
      return parsed.ok ? parsed.value : undefined;
    }
    case 'date':
    case 'local_date': {
      const d = parseFieldDate(s);
      return d ? isoDay(d) : s;
    }
    case 'state':
      return s.toUpperCase();
    default:
      return plainText(s);
  }
}

/** fromApiValue shows a stored API value in the form's display form. */
export function fromApiValue(def: FieldDefinition, value: unknown): string | boolean {
  const type = fieldType(def, () => undefined);
  if (type === 'checkbox') return value === true;
  if (value == null) return '';
  if (type === 'currency' && typeof value === 'number') return (value / 100).toFixed(2);
  if ((type === 'date' || type === 'local_date') && typeof value === 'string') {
    const d = parseIsoDate(value);
    if (d) return `${String(d.m).padStart(2, '0')}/${String(d.d).padStart(2, '0')}/${d.y}`;
  }
  return String(value);
}
