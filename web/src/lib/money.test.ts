import { describe, expect, it } from 'vitest';
import { clampEstimate, formatApr, formatCents, parseDollars, planAmountCents } from './money';

describe('money', () => {
  it('formats cents as dollars with commas', () => {
    expect(formatCents(450000)).toBe('$4,500.00');
    expect(formatCents(450000, { whole: true })).toBe('$4,500');
    expect(formatCents(5)).toBe('$0.05');
    expect(formatCents(undefined)).toBe('$0.00');
  });
  it('parses dollars', () => {
    expect(parseDollars('$4,500.5')).toBe(450050);
    expect(parseDollars('12')).toBe(1200);
    expect(parseDollars('abc')).toBeNull();
  });
  it('shows APR with 2 decimals', () => expect(formatApr(26.9)).toBe('26.90%'));
  it('clamps the estimator', () => {
    expect(clampEstimate(9000, 0, 5000)).toBe(5000);
    expect(clampEstimate(-5, 500, 5000)).toBe(500);
  });
});

describe('planAmountCents', () => {
  it('prices plans for the smaller of the approved and the treatment amount, or whichever is known', () => {
    expect(planAmountCents(500_000, 320_000)).toBe(320_000);
    expect(planAmountCents(250_000, 320_000)).toBe(250_000);
    expect(planAmountCents(500_000, 0)).toBe(500_000);
    expect(planAmountCents(0, 320_000)).toBe(320_000);
  });
});
