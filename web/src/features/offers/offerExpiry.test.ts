import { describe, expect, it } from 'vitest';
import { offerExpiry } from './offerExpiry';

describe('offer expiry', () => {
  it('shows the offer expiry', () => {
    const now = new Date(2026, 10, 21, 10, 0, 0);
    expect(offerExpiry(new Date(2026, 11, 21, 12).toISOString(), now)).toBe('Offer Exp: Dec 21, 2026 (30 days)');
  });

  it('without a date from the lender, counts the catalogue days: Snap’s 60-day pre-approval shows 60 days', () => {
    const now = new Date(2026, 10, 21, 10, 0, 0);
    expect(offerExpiry(undefined, now, 60)).toBe('Offer Exp: Jan 20, 2027 (60 days)');
    expect(offerExpiry(undefined, now)).toBe('Offer Exp: Dec 21, 2026 (30 days)');
  });
});
