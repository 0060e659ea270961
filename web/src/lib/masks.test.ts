import { describe, expect, it } from 'vitest';
import { caretAfter, maskMoney, maskPattern, PATTERNS } from './masks';

describe('maskPattern', () => {
  it('shapes a phone number as it is typed, a separator only once a digit follows it', () => {
    const steps = [...'6195550134'].map((_, i) => maskPattern('6195550134'.slice(0, i + 1), PATTERNS.phone));
    expect(steps).toEqual([
      '(6',
      '(61',
      '(619',
      '(619) 5',
      '(619) 55',
      '(619) 555',
      '(619) 555-0',
      '(619) 555-01',
      '(619) 555-013',
      '(619) 555-0134',
    ]);
  });

  it('takes a paste in any shape and drops digits past the pattern', () => {
    expect(maskPattern('619-555-0134', PATTERNS.phone)).toBe('(619) 555-0134');
    expect(maskPattern('123 45 6789 0', PATTERNS.ssn)).toBe('123-45-6789');
    expect(maskPattern('ssn: 123456789', PATTERNS.ssn)).toBe('123-45-6789');
    expect(maskPattern('abc', PATTERNS.ssn)).toBe('');
  });

  it('a ZIP code is five digits, with the four more only when they are typed', () => {
    expect(maskPattern('92101', PATTERNS.zipCode)).toBe('92101');
    expect(maskPattern('921011234', PATTERNS.zipCode)).toBe('92101-1234');
    expect(maskPattern('92101-', PATTERNS.zipCode)).toBe('92101');
  });

  it('deleting back over a separator deletes the separator', () => {
    expect(maskPattern('(619) ', PATTERNS.phone)).toBe('(619');
    expect(maskPattern('123-', PATTERNS.ssn)).toBe('123');
  });
});

describe('maskMoney', () => {
  it('groups thousands and keeps at most two decimals', () => {
    expect(maskMoney('4500')).toBe('4,500');
    expect(maskMoney('1234567.891')).toBe('1,234,567.89');
    expect(maskMoney('4500.')).toBe('4,500.');
    expect(maskMoney('.5')).toBe('0.5');
  });

  it('drops what is not an amount: letters, a second point, leading zeros, a ninth whole digit', () => {
    expect(maskMoney('$4,5a00')).toBe('4,500');
    expect(maskMoney('45.0.5')).toBe('45.05');
    expect(maskMoney('0045')).toBe('45');
    expect(maskMoney('0')).toBe('0');
    expect(maskMoney('123456789')).toBe('12,345,678');
    expect(maskMoney('')).toBe('');
  });
});

describe('caretAfter', () => {
  it('keeps the caret after the same digits when a separator moves before it', () => {
    // "(619) 55|" with a 1 typed after "(61": "(6119) 55" → "(611) 955"; the caret follows the third digit.
    expect(caretAfter('(6119) 55', 4, '(611) 955')).toBe(4);
    // The 3 of "12,345" deleted: the box holds "12,|45", shaped "1,2|45".
    expect(caretAfter('12,45', 3, maskMoney('12,45'))).toBe(3);
  });

  it('puts the caret at the end when it was at the end of what was typed', () => {
    expect(caretAfter('4', 1, '04/')).toBe(3);
    expect(caretAfter('6195', 4, '(619) 5')).toBe(7);
  });
});
