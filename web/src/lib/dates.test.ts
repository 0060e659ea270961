import { describe, expect, it } from 'vitest';
import { maskUsDate, normalizeUsDate, parseUsDate } from './dates';

/** typeInto plays keystrokes one by one into a masked date field, as a patient would. */
function typeInto(keys: string, start = ''): string {
  let v = start;
  for (const k of keys) v = k === '⌫' ? maskUsDate(v.slice(0, -1), true) : maskUsDate(v + k);
  return v;
}

describe('the date mask', () => {
  it('adds the slashes as digits are typed (a keypad has none)', () => {
    expect(typeInto('03281975')).toBe('03/28/1975');
    expect(typeInto('03/28/1975')).toBe('03/28/1975');
    expect(typeInto('3/8/1975')).toBe('03/08/1975');
  });

  it('keeps months to 01–12 and days to 01–31', () => {
    expect(typeInto('13')).toBe('1'); // no 13th month
    expect(typeInto('00')).toBe('0');
    expect(typeInto('4')).toBe('04/'); // only a one-digit month starts with 4
    expect(typeInto('1232')).toBe('12/3'); // no 32nd day
    expect(typeInto('1200')).toBe('12/0');
    expect(typeInto('1204')).toBe('12/04/');
    expect(typeInto('127')).toBe('12/07/');
  });

  it('lets MM/YYYY and MM/YY through, read right once the field is left', () => {
    for (const [keys, left] of [
      ['03/2024', '03/2024'],
      ['032024', '03/2024'],
      ['03/1999', '03/1999'],
      ['03/24', '03/24'],
      ['0324', '03/24'],
    ]) {
      const shaped = normalizeUsDate(typeInto(keys!));
      expect(shaped, keys).toBe(left);
      expect(parseUsDate(shaped), keys).not.toBeNull();
    }
    expect(parseUsDate('03/2024')).toEqual({ y: 2024, m: 3, d: 1 });
    expect(parseUsDate('03/24')).toEqual({ y: 2024, m: 3, d: 1 });
    // A two-digit year after a whole date is not a year this product reads: kept, and refused by validation.
    expect(normalizeUsDate('03/28/75')).toBe('03/28/75');
    expect(parseUsDate('03/28/75')).toBeNull();
  });

  it('Backspace gets past a slash the mask added', () => {
    expect(typeInto('⌫', '03/')).toBe('03');
    expect(typeInto('⌫⌫', '03/28/')).toBe('03/2');
    expect(typeInto('⌫⌫⌫⌫⌫', '03/28/1975')).toBe('03/28');
  });

  it('drops anything that is not a digit or a slash, and stops at 10 characters', () => {
    expect(maskUsDate('ab03-28.1975x')).toBe('03/28/1975');
    expect(maskUsDate('03/28/197512')).toBe('03/28/1975');
  });
});
