import { describe, expect, it } from 'vitest';
import { offerExpiry } from './offerExpiry';

describe('offer expiry', () => {
  it('shows the offer expiry', () => {
    const now = new Date(2026, 10, 21, 10, 0, 0);
    expect(offerExpiry(new Date(2026, 11, 21, 12).toISOString(), now)).toBe('Offer Exp: Dec 21, 2026 (30 days)');
  });
});
