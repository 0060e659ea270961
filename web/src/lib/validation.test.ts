import { describe, expect, it, vi } from 'vitest';
import type { FieldDefinition } from './api/types';
import { fieldType, isWholeNumberField, parseWholeNumber, toApiValue, US_STATES, validateField, validateForm } from './validation';

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

// Every rule and its boundaries, in the API's form, are in the conformance
// cases (validation.conformance.test.ts); these cover what a person types.
describe('validation rules on typed values', () => {
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
    expect(validateField(f('ssn'), '666-45-6789')).toBe('Invalid Field');
    expect(validateField(f('phone'), '(312) 555-010')).toBe('Phone is not a valid phone number');
    expect(validateField(f('phone'), '(312) 555-0100')).toBeNull();
    expect(validateField(f('phone'), '(555) 123-4567')).toBe('Phone is not a valid phone number'); // exchange starts with 1
    expect(validateField(f('zipCode'), '6060')).toBe('Invalid Field');
    expect(validateField(f('zipCode'), '60601-1234')).toBeNull();
    expect(validateField(f('email'), 'a@b')).toBe('Email is invalid');
    expect(validateField(f('email'), 'ann@example.com')).toBeNull();
    expect(validateField(f('email'), ' ann@mailinator.com ')).toBe('This email is not supported');
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
    expect(validateField(f('currency', { max: { max: 100000 } }), '$1,000.01')).toBe('Must be at most $1,000.00');
    expect(validateField(f('currency'), '1e3')).toBe('Invalid Field');
    expect(validateField(f('currency'), '$')).toBe('Invalid Field');
  });
  it('no PO box and valid characters', () => {
    expect(validateField(f('text', { noPoBox: {} }), 'P.O. Box 12')).toBe('P.O. Box Not Allowed');
    expect(validateField(f('text', { noPoBox: {} }), '12 Post Rd')).toBeNull();
    expect(validateField(f('text', { noPoBox: {} }), 'PO 12')).toBe('P.O. Box Not Allowed');
    expect(validateField(f('text', { noPoBox: {} }), '  Pob 7  ')).toBe('P.O. Box Not Allowed');
    expect(validateField(f('text', { validChars: { chars: "A-Za-z '.-" } }), "O'Hara")).toBeNull();
    expect(validateField(f('text', { validChars: { chars: "A-Za-z '.-" } }), 'Ann3')).toMatch(/not allowed: 3/);
    const unicode = f('text', { validChars: { chars: "\\p{L}\\p{M} '\u2019.-" } });
    expect(validateField(unicode, 'ねこ O\u2019Hara')).toBeNull();
    expect(validateField(unicode, 'Ann#')).toMatch(/not allowed: #/);
    // What is sent has the typographic apostrophe straightened, so that is what is checked.
    expect(validateField(f('text', { validChars: { chars: "A-Za-z '" } }), 'O\u2019Hara')).toBeNull();
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
    expect(toApiValue(f('currency'), '1e3')).toBeUndefined();
    expect(toApiValue(f('state'), 'il')).toBe('IL');
  });
  it('the state list is the server\u2019s', () => {
    expect(US_STATES).toHaveLength(51);
    expect(US_STATES).toContainEqual(['DC', 'District of Columbia']);
  });
});

describe('validateForm: field rules, then the group rules over what would be sent', () => {
  const now = new Date(2026, 2, 20, 12);
  const zip = f('zipCode', { required: {} }, { id: 'addressZipCode', label: 'ZIP code' });
  const state = f('state', { required: {} }, { id: 'addressState', label: 'State' });
  const freq = f('select', { required: {} }, { id: 'payFrequency' });
  const prev = f('local_date', { required: {}, maxDate: { date: 'today' } }, { id: 'previousPayDate' });
  const next = f('local_date', { required: {}, minDate: { date: 'today' } }, { id: 'nextPayDate' });
  const mobile = f('phone', {}, { id: 'mobilePhone', label: 'Mobile phone' });
  const home = f('phone', {}, { id: 'homePhone', label: 'Home phone' });
  const groups = [
    { id: 'phone', rule: 'requireOne', fields: ['mobilePhone', 'homePhone'], message: 'Enter a mobile or a home phone number' },
    { id: 'zipState', rule: 'zipState', fields: ['addressZipCode', 'addressState'], message: 'Zip Code not valid for state' },
    { id: 'payDates', rule: 'payDates', fields: ['payFrequency', 'previousPayDate', 'nextPayDate'], message: 'Pay dates do not fit' },
  ];
  const defs = [zip, state, freq, prev, next, mobile, home];
  const good = {
    addressZipCode: '60601',
    addressState: 'IL',
    payFrequency: 'bi_weekly',
    previousPayDate: '03/13/2026',
    nextPayDate: '03/27/2026',
    mobilePhone: '(312) 555-0100',
    homePhone: '',
  };

  it('passes a good form', () => {
    expect(validateForm(defs, groups, good, now)).toEqual([]);
  });
  it('a ZIP of another state', () => {
    expect(validateForm(defs, groups, { ...good, addressZipCode: '90210' }, now)).toEqual([
      { field: 'addressZipCode', message: 'Zip Code not valid for state' },
    ]);
  });
  it('pay dates that do not fit the frequency', () => {
    expect(validateForm(defs, groups, { ...good, nextPayDate: '03/26/2026' }, now)).toEqual([
      { field: 'nextPayDate', message: 'Pay dates do not fit' },
    ]);
  });
  it('no phone', () => {
    expect(validateForm(defs, groups, { ...good, mobilePhone: '  ' }, now)).toEqual([
      { field: 'mobilePhone', message: 'Enter a mobile or a home phone number' },
    ]);
  });
  it('a field with its own error is not judged again by its group', () => {
    expect(validateForm(defs, groups, { ...good, addressZipCode: '6060' }, now)).toEqual([{ field: 'addressZipCode', message: 'Invalid Field' }]);
  });
  it('a group rule it does not know is left to the server', () => {
    expect(validateForm(defs, [{ id: 'x', rule: 'zipCounty', fields: ['addressZipCode'], message: 'No' }], good, now)).toEqual([]);
  });
});

describe('whole numbers (months employed, housing months, every "number" field)', () => {
  const months = f(
    'number',
    { required: {}, min: { min: 0 }, max: { max: 720 } },
    { id: 'monthsEmployed', path: 'monthsEmployed', label: 'Months with this employer' },
  );

  it('a decimal gets the patient’s words, the same the server answers', () => {
    expect(validateField(months, '2.5')).toBe('Please enter a whole number.');
    expect(validateField(months, '2.0')).toBe('Please enter a whole number.');
    expect(validateField(months, '.5')).toBe('Please enter a whole number.');
    expect(validateField(months, '24.')).toBe('Please enter a whole number.');
    expect(validateField(months, '1e3')).toBe('Invalid Field');
    expect(validateField(months, 'two')).toBe('Invalid Field');
    expect(validateField(months, '24')).toBeNull();
    expect(validateField(months, ' 1,2 ')).toBeNull();
    expect(validateField(months, '721')).toBe('Must be at most 720');
    expect(validateField(months, '-1')).toBe('Must be at least 0');
  });

  it('a decimal never becomes a number for the API', () => {
    expect(toApiValue(months, '24')).toBe(24);
    expect(toApiValue(months, '2.5')).toBeUndefined();
    expect(toApiValue(months, '2.0')).toBeUndefined();
    expect(toApiValue(months, '1e3')).toBeUndefined();
    expect(toApiValue(months, '99999999999999999999')).toBeUndefined();
  });

  it('the contract’s integer counts are whole numbers even when defined as text', () => {
    const housing = f('text', {}, { id: 'housingMonths', path: 'housingMonths' });
    expect(isWholeNumberField(housing)).toBe(true);
    expect(isWholeNumberField(f('text'))).toBe(false);
    expect(isWholeNumberField(f('currency'))).toBe(false);
    expect(validateField(housing, '6.5')).toBe('Please enter a whole number.');
    expect(toApiValue(housing, '60')).toBe(60);
  });

  it('parseWholeNumber', () => {
    expect(parseWholeNumber('0')).toEqual({ ok: true, value: 0 });
    expect(parseWholeNumber('-0')).toEqual({ ok: true, value: 0 });
    expect(parseWholeNumber('1,000')).toEqual({ ok: true, value: 1000 });
    expect(parseWholeNumber('2.5')).toEqual({ ok: false, reason: 'notWhole' });
    expect(parseWholeNumber('')).toEqual({ ok: false, reason: 'invalid' });
  });
});

describe('describeChars', () => {
  it('says the allowed characters in words', async () => {
    const { describeChars } = await import('./validation');
    expect(describeChars("\\p{L}\\p{M} '\u2019.-")).toBe('letters, spaces, apostrophes, periods and hyphens');
    expect(describeChars('A-Za-z0-9#')).toBe('letters, digits and #');
    expect(describeChars('a-z_')).toBe('a-z_');
  });
});
