import { describe, expect, it, vi } from 'vitest';
import type { FieldDefinition } from './api/types';
import { fieldType, toApiValue, validateField } from './validation';

const f = (type: string, rules: FieldDefinition['rules'] = {}, extra: Partial<FieldDefinition> = {}): FieldDefinition => ({
  id: 'x',
  path: 'x',
  name: 'x',
  label: 'Phone',
  type,
  rules,
  ...extra,
});
const now = new Date(2026, 10, 21);

describe('validation rules (spec §5)', () => {
  it('required', () => {
    expect(validateField(f('text', { required: {} }), '  ')).toBe('Required Field');
    expect(validateField(f('text'), '')).toBeNull();
    expect(validateField(f('checkbox', { required: {} }), false)).toBe('Must be checked');
  });
  it('uses the rule message when the server sends one', () => {
    expect(validateField(f('text', { required: { message: 'Please enter it' } }), '')).toBe('Please enter it');
  });
  it('lengths', () => {
    expect(validateField(f('text', { minLength: { min: 3 } }), 'ab')).toBe('Must be at least 3 characters');
    expect(validateField(f('text', { maxLength: { max: 2 } }), 'abc')).toBe('Must be at most 2 characters');
  });
  it('SSN, phone, zip and email', () => {
    expect(validateField(f('ssn'), '123-45-678')).toBe('Invalid Field');
    expect(validateField(f('ssn'), '123-45-6789')).toBeNull();
    expect(validateField(f('phone'), '(555) 123-456')).toBe('Phone is not a valid phone number');
    expect(validateField(f('phone'), '(555) 123-4567')).toBeNull();
    expect(validateField(f('zipCode'), '6060')).toBe('Invalid Field');
    expect(validateField(f('zipCode'), '60601-1234')).toBeNull();
    expect(validateField(f('email'), 'a@b')).toBe('Email is invalid');
    expect(validateField(f('email'), 'ann@example.com')).toBeNull();
  });
  it('dates and ages', () => {
    expect(validateField(f('local_date'), '02/30/1980', now)).toBe('Invalid Field');
    expect(validateField(f('local_date', { minAge: { age: 18 } }), '11/22/2008', now)).toBe('Must be at least 18 years old');
    expect(validateField(f('local_date', { minAge: { age: 18 } }), '11/21/2008', now)).toBeNull();
    expect(validateField(f('local_date', { maxDate: { date: 'today' } }), '11/22/2026', now)).toBe('Must not be in the future');
    expect(validateField(f('local_date'), '04/1980', now)).toBeNull();
  });
  it('currency min and max are in cents', () => {
    expect(validateField(f('currency', { min: { min: 100000 } }), '999.99')).toBe('Must be at least $1,000.00');
    expect(validateField(f('currency', { max: { max: 100000 } }), '1,000.00')).toBeNull();
  });
  it('no PO box and valid characters', () => {
    expect(validateField(f('text', { noPoBox: {} }), 'P.O. Box 12')).toBe('P.O. Box Not Allowed');
    expect(validateField(f('text', { noPoBox: {} }), '12 Post Rd')).toBeNull();
    expect(validateField(f('text', { validChars: { chars: "A-Za-z '.-" } }), "O'Hara")).toBeNull();
    expect(validateField(f('text', { validChars: { chars: "A-Za-z '.-" } }), 'Ann3')).toMatch(/not allowed: 3/);
    const unicode = f('text', { validChars: { chars: "\\p{L}\\p{M} '\u2019.-" } });
    expect(validateField(unicode, 'ねこ O\u2019Hara')).toBeNull();
    expect(validateField(unicode, 'Ann#')).toMatch(/not allowed: #/);
  });
  it('options', () => {
    const sel = f('select', { validOptions: { options: [{ value: 'own', label: 'Own' }] } });
    expect(validateField(sel, 'rent')).toBe('Invalid Field');
    expect(validateField(sel, 'own')).toBeNull();
  });
  it('falls back to text for unknown types with a warning', () => {
    const warn = vi.fn();
    expect(fieldType({ id: 'q', type: 'hologram' }, warn)).toBe('text');
    expect(warn).toHaveBeenCalledOnce();
  });
  it('converts values for the API', () => {
    expect(toApiValue(f('ssn'), '123-45-6789')).toBe('123456789');
    expect(toApiValue(f('phone'), '(555) 123-4567')).toBe('5551234567');
    expect(toApiValue(f('currency'), '65,000.00')).toBe(6500000);
    expect(toApiValue(f('local_date'), '03/28/1975')).toBe('1975-03-28');
    expect(toApiValue(f('text'), '  It\u2019s  ')).toBe("It's");
    expect(toApiValue(f('text'), '')).toBeUndefined();
  });
});

describe('describeChars', () => {
  it('says the allowed characters in words', async () => {
    const { describeChars } = await import('./validation');
    expect(describeChars("\\p{L}\\p{M} '\u2019.-")).toBe("letters, accents, spaces, ', \u2019, . and -");
    expect(describeChars("A-Za-z0-9#")).toBe('letters, numbers and #');
  });
});
