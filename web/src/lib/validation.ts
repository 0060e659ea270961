import type { FieldDefinition } from './api/types';
import { ageOn, compareDays, parseIsoDate, parseUsDate, toUs, today, type DayDate } from './dates';
import { formatCents } from './money';

/** Messages of spec §5.1. */
export const messages = {
  invalid: 'Invalid Field',
  required: 'Required Field',
  requireTrue: 'Must be checked',
  minAge: (min: number) => `Must be at least ${min} years old`,
  maxAge: (max: number) => `Must be at most ${max} years old`,
  minLength: (min: number) => `Must be at least ${min} characters`,
  maxLength: (max: number) => `Must be at most ${max} characters`,
  minValue: (min: number | string) => `Must be at least ${min}`,
  maxValue: (max: number | string) => `Must be at most ${max}`,
  notInFuture: 'Must not be in the future',
  notInPast: 'Must not be in the past',
  noPoBox: 'P.O. Box Not Allowed',
  email: 'Email is invalid',
  phone: (label: string) => `${label} is not a valid phone number`,
  zip: 'Zip Code not valid for state',
  requireOne: 'Must fill in at least one',
  /** The server answers the same words for the same input (a validation_error fieldErrors entry). */
  wholeNumber: 'Please enter a whole number.',
};

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

/** fieldType resolves a field's type, falling back to text with a warning (spec §8). */
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
  if (/^[+-]?(\d+\.\d*|\.\d+)$/.test(s)) return { ok: false, reason: 'notWhole' };
  return { ok: false, reason: 'invalid' };
}

export function isRequired(def: FieldDefinition): boolean {
  return Boolean(def.rules && def.rules.required != null);
}

export const digits = (v: string) => v.replace(/\D/g, '');

const PO_BOX = /^\s*(p[\s.]*o[\s.]*(box|b\.?\s)|post\s+office\s+box|postal\s+box|box\s+\d)/i;
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
export const ZIP = /^\d{5}(-\d{4})?$/;

/** validChars: allows only the listed characters, ranges and Unicode classes ("\\p{L} '.-"). */
export function invalidChars(value: string, chars: string): string[] {
  let re: RegExp;
  try {
    re = new RegExp(`[^${chars}]`, 'gu');
  } catch {
    return [];
  }
  return Array.from(new Set(value.match(re) ?? []));
}

/** describeChars says in words which characters a validChars rule allows. */
export function describeChars(chars: string): string {
  const words: string[] = [];
  let rest = chars;
  const take = (pattern: RegExp, word: string) => {
    if (pattern.test(rest)) {
      rest = rest.replace(pattern, '');
      if (!words.includes(word)) words.push(word);
    }
  };
  take(/\\p\{L\}|A-Za-z|a-zA-Z|A-Z|a-z/g, 'letters');
  take(/\\p\{M\}/g, 'accents');
  take(/\\p\{N\}|0-9/g, 'numbers');
  take(/ /g, 'spaces');
  const symbols = rest.replace(/\\/g, '').split('').filter((c) => c.trim());
  return [...words, ...symbols].join(', ').replace(/, ([^,]*)$/, ' and $1');
}

export function parseFieldDate(value: string): DayDate | null {
  return parseUsDate(value) ?? parseIsoDate(value);
}

/**
 * validateField checks one value against its field definition and returns the
 * first error message, or null. Values are what the person typed (display form).
 */
function ruleDate(date: string | undefined, now: Date): DayDate | null {
  if (!date) return null;
  if (date === 'today') return today(now);
  return parseIsoDate(date);
}

/**
 * validateField checks one value against its field definition and returns the
 * first error message, or null. Values are what the person typed (display form).
 * A rule's own message, when the server sends one, wins.
 */
export function validateField(def: FieldDefinition, raw: unknown, now: Date = new Date()): string | null {
  const type = isWholeNumberField(def) ? 'number' : fieldType(def, () => undefined);
  const rules = def.rules ?? {};
  const label = def.label ?? def.name;
  const msg = (id: string, fallback: string) => rules[id]?.message || fallback;
  if (type === 'checkbox') {
    if (isRequired(def) && raw !== true) return msg('required', messages.requireTrue);
    return null;
  }
  const value = typeof raw === 'string' ? raw.trim() : raw == null ? '' : String(raw);
  if (value === '') return isRequired(def) ? msg('required', messages.required) : null;

  switch (type) {
    case 'email':
      if (!EMAIL.test(value)) return messages.email;
      break;
    case 'phone':
    case 'dynamicPhone':
      if (digits(value).length !== 10) return messages.phone(label);
      break;
    case 'ssn':
      if (digits(value).length !== 9) return messages.invalid;
      break;
    case 'zipCode':
      if (!ZIP.test(value)) return messages.invalid;
      break;
    case 'state':
      if (!/^[A-Za-z]{2}$/.test(value)) return messages.invalid;
      break;
    case 'date':
    case 'local_date': {
      const d = parseFieldDate(value);
      if (!d) return messages.invalid;
      const t = today(now);
      const minAge = rules.minAge?.age;
      const maxAge = rules.maxAge?.age;
      if (minAge !== undefined && ageOn(d, t) < minAge) return msg('minAge', messages.minAge(minAge));
      if (maxAge !== undefined && ageOn(d, t) > maxAge) return msg('maxAge', messages.maxAge(maxAge));
      const min = ruleDate(rules.minDate?.date, now);
      const max = ruleDate(rules.maxDate?.date, now);
      if (min && compareDays(d, min) < 0) {
        return msg('minDate', rules.minDate?.date === 'today' ? messages.notInPast : messages.minValue(toUs(min)));
      }
      if (max && compareDays(d, max) > 0) {
        return msg('maxDate', rules.maxDate?.date === 'today' ? messages.notInFuture : messages.maxValue(toUs(max)));
      }
      return null;
    }
    case 'currency': {
      const n = Number(value.replace(/[$,\s]/g, ''));
      if (!Number.isFinite(n)) return messages.invalid;
      const cents = Math.round(n * 100);
      const min = rules.min?.min;
      const max = rules.max?.max;
      if (min != null && cents < min) return msg('min', messages.minValue(formatCents(min)));
      if (max != null && cents > max) return msg('max', messages.maxValue(formatCents(max)));
      return null;
    }
    case 'number': {
      const parsed = parseWholeNumber(value);
      if (!parsed.ok) return parsed.reason === 'notWhole' ? messages.wholeNumber : messages.invalid;
      const n = parsed.value;
      const min = rules.min?.min;
      const max = rules.max?.max;
      if (min != null && n < min) return msg('min', messages.minValue(min));
      if (max != null && n > max) return msg('max', messages.maxValue(max));
      return null;
    }
    case 'select':
    case 'radio': {
      const opts = rules.validOptions?.options;
      if (opts && opts.length && !opts.some((o) => o.value === value)) return msg('validOptions', messages.invalid);
      return null;
    }
    default:
      break;
  }
  const minLength = rules.minLength?.min;
  const maxLength = rules.maxLength?.max;
  if (minLength != null && value.length < minLength) return msg('minLength', messages.minLength(minLength));
  if (maxLength != null && value.length > maxLength) return msg('maxLength', messages.maxLength(maxLength));
  if (rules.noPoBox && PO_BOX.test(value)) return msg('noPoBox', messages.noPoBox);
  const chars = rules.validChars?.chars;
  if (chars) {
    const bad = invalidChars(value, chars);
    if (bad.length) return msg('validChars', `These characters are not allowed: ${bad.join(' ')}. You can use ${describeChars(chars)}.`);
  }
  return null;
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
    case 'currency': {
      const n = Number(s.replace(/[$,\s]/g, ''));
      return Number.isFinite(n) ? Math.round(n * 100) : undefined;
    }
    case 'number': {
      const parsed = parseWholeNumber(s);
      return parsed.ok ? parsed.value : undefined;
    }
    case 'date':
    case 'local_date': {
      const d = parseFieldDate(s);
      return d ? `${d.y}-${String(d.m).padStart(2, '0')}-${String(d.d).padStart(2, '0')}` : s;
    }
    case 'state':
      return s.toUpperCase();
    default:
      return s.replace(/[\u2018\u2019]/g, "'").replace(/[\u201C\u201D]/g, '"').replace(/[\u2013\u2014]/g, '-').replace(/\u2026/g, '...');
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

export const US_STATES: [string, string][] = [
  ['AL', 'Alabama'], ['AK', 'Alaska'], ['AZ', 'Arizona'], ['AR', 'Arkansas'], ['CA', 'California'],
  ['CO', 'Colorado'], ['CT', 'Connecticut'], ['DE', 'Delaware'], ['DC', 'District of Columbia'],
  ['FL', 'Florida'], ['GA', 'Georgia'], ['HI', 'Hawaii'], ['ID', 'Idaho'], ['IL', 'Illinois'],
  ['IN', 'Indiana'], ['IA', 'Iowa'], ['KS', 'Kansas'], ['KY', 'Kentucky'], ['LA', 'Louisiana'],
  ['ME', 'Maine'], ['MD', 'Maryland'], ['MA', 'Massachusetts'], ['MI', 'Michigan'], ['MN', 'Minnesota'],
  ['MS', 'Mississippi'], ['MO', 'Missouri'], ['MT', 'Montana'], ['NE', 'Nebraska'], ['NV', 'Nevada'],
  ['NH', 'New Hampshire'], ['NJ', 'New Jersey'], ['NM', 'New Mexico'], ['NY', 'New York'],
  ['NC', 'North Carolina'], ['ND', 'North Dakota'], ['OH', 'Ohio'], ['OK', 'Oklahoma'], ['OR', 'Oregon'],
  ['PA', 'Pennsylvania'], ['RI', 'Rhode Island'], ['SC', 'South Carolina'], ['SD', 'South Dakota'],
  ['TN', 'Tennessee'], ['TX', 'Texas'], ['UT', 'Utah'], ['VT', 'Vermont'], ['VA', 'Virginia'],
  ['WA', 'Washington'], ['WV', 'West Virginia'], ['WI', 'Wisconsin'], ['WY', 'Wyoming'],
];
