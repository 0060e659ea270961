/*
 * Input masks of the application form (docs/behaviour.md, "Validation"):
 * each takes what is in the box after a keystroke or a paste and answers it
 * shaped, keeping only the characters that mean something (digits, and a
 * money amount's decimal point). A separator appears only once a digit
 * follows it, so deleting backwards never gets stuck on a ") " or a "-".
 * lib/dates.ts shapes dates the same way (maskUsDate).
 */

/** A pattern: '0' is a digit, anything else is written as it stands. */
export type Pattern = string;

export const PATTERNS = {
  ssn: '000-00-0000',
  phone: '(000) 000-0000',
  zipCode: '00000-0000',
} as const satisfies Record<string, Pattern>;

/** The patterns of the server's field types that have one. */
const FIELD_PATTERNS: Partial<Record<string, Pattern>> = {
  ssn: PATTERNS.ssn,
  phone: PATTERNS.phone,
  dynamicPhone: PATTERNS.phone,
  zipCode: PATTERNS.zipCode,
};

/**
 * maskFor answers how a box of a field type shapes its value, or undefined
 * for a box without a mask. The form shapes what it is given beforehand
 * (the office's invitation, answers kept from before) the same way as what
 * is typed, so both look alike. Dates have a mask of their own (lib/dates.ts).
 */
export function maskFor(type: string): ((typed: string) => string) | undefined {
  if (type === 'currency') return maskMoney;
  const pattern = FIELD_PATTERNS[type];
  return pattern ? (typed) => maskPattern(typed, pattern) : undefined;
}

/** maskPattern fills a pattern with the digits typed, in order, dropping any beyond it. */
export function maskPattern(typed: string, pattern: Pattern): string {
  const digits = typed.replace(/\D/g, '');
  let out = '';
  let next = 0;
  for (const c of pattern) {
    if (next >= digits.length) break;
    out += c === '0' ? digits[next++] : c;
  }
  return out;
}

/** The largest whole-dollar part a money box takes: eight digits. */
const MONEY_INT_DIGITS = 8;

/**
 * maskMoney shapes a dollar amount as typed: digits with thousands commas,
 * one decimal point, at most two decimals, no leading zeros, at most eight
 * digits before the point.
 */
export function maskMoney(typed: string): string {
  const clean = typed.replace(/[^\d.]/g, '');
  const dot = clean.indexOf('.');
  const whole = (dot < 0 ? clean : clean.slice(0, dot)).slice(0, MONEY_INT_DIGITS).replace(/^0+(?=\d)/, '');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  if (dot < 0) return grouped;
  const cents = clean
    .slice(dot + 1)
    .replace(/\./g, '')
    .slice(0, 2);
  return `${grouped || '0'}.${cents}`;
}

/** significant answers whether a character of a shaped value is one the patient typed (not a separator the mask added). */
export const significant = (c: string) => (c >= '0' && c <= '9') || c === '.';

/**
 * caretAfter answers where the caret belongs in a shaped value: at its end
 * when it was at the end of what was typed (the usual case, and the only
 * right one where a mask adds digits, as a date's leading zero), else after
 * as many significant characters as stood before it.
 */
export function caretAfter(typed: string, caret: number, shaped: string): number {
  if (caret >= typed.length) return shaped.length;
  let want = 0;
  for (const c of typed.slice(0, caret)) if (significant(c)) want++;
  if (want === 0) return 0;
  for (let i = 0; i < shaped.length; i++) {
    if (significant(shaped[i]!) && --want === 0) return i + 1;
  }
  return shaped.length;
}
