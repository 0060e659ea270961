import { describe, expect, it } from 'vitest';
import { setLanguage } from './i18n';
import { clampEstimate, formatApr, formatCents, parseDollars, paymentsLine, planAmountCents, scheduleParts } from './money';

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

  it('prices plans for the patient’s share: the treatment less the insurance benefits expected', () => {
    // Before: $4,500 with $1,000 of insurance was priced at $4,500, financing what insurance pays.
    expect(planAmountCents(500_000, 450_000, 100_000)).toBe(350_000);
    expect(planAmountCents(300_000, 450_000, 100_000)).toBe(300_000);
    expect(planAmountCents(0, 450_000, 100_000)).toBe(350_000);
    // Insurance covering it all leaves nothing to price but the approval.
    expect(planAmountCents(500_000, 450_000, 450_000)).toBe(500_000);
  });
});

describe('a plan’s payments, as it states them (issue 27)', () => {
  const plan = (paymentCount: number, monthlyAmountCents: number, finalPaymentCents: number) => ({
    paymentCount,
    monthlyAmountCents,
    finalPaymentCents,
  });

  it('says equal payments once, by the plan’s own count', () => {
    expect(scheduleParts(plan(24, 22_484, 22_484))).toEqual({ count: 24, amountCents: 22_484 });
    expect(paymentsLine(plan(24, 22_484, 22_484))).toBe('24 payments of $224.84');
  });

  it('says a final payment that differs apart, after the others', () => {
    expect(scheduleParts(plan(24, 22_500, 20_898))).toEqual({ count: 23, amountCents: 22_500, finalCents: 20_898 });
    expect(paymentsLine(plan(24, 22_500, 20_898))).toBe('23 payments of $225.00 and a final payment of $208.98');
    expect(paymentsLine(plan(2, 3_000, 1_000))).toBe('1 payment of $30.00 and a final payment of $10.00');
    // A final payment larger than the others is said the same way.
    expect(paymentsLine(plan(24, 22_444, 22_447))).toBe('23 payments of $224.44 and a final payment of $224.47');
  });

  it('a one-payment plan is its final payment', () => {
    expect(scheduleParts(plan(1, 0, 10_000))).toEqual({ count: 1, amountCents: 10_000 });
    expect(paymentsLine(plan(1, 10_000, 10_000))).toBe('1 payment of $100.00');
  });

  it('in Spanish too', async () => {
    await setLanguage('es');
    try {
      expect(paymentsLine(plan(24, 22_500, 20_898))).toBe('23 pagos de $225.00 y un último pago de $208.98');
      expect(paymentsLine(plan(1, 10_000, 10_000))).toBe('1 pago de $100.00');
    } finally {
      await setLanguage('en');
    }
  });
});
