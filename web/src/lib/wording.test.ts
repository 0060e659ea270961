import { describe, expect, it } from 'vitest';
import { wording } from './wording';

describe('the two wordings', () => {
  it('names an office with a brand by it, and one without neutrally', () => {
    expect(wording('Maple Street Dental')).toEqual({ staff: 'the Maple Street Dental team', practice: 'Maple Street Dental' });
    for (const none of [undefined, null, '', '  ']) expect(wording(none)).toEqual({ staff: 'the office manager', practice: 'the dental practice' });
  });
});
