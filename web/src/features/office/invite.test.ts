import { describe, expect, it } from 'vitest';
import { AMOUNT_MISSING, AMOUNT_RANGE, amountError, inviteBody, inviteErrors, phoneDigits, type InviteForm } from './invite';
import { qrPath } from './QrCode';
import { eventWords, planWords } from './words';

describe('the treatment amount', () => {
  it('says what is wrong in words', () => {
    expect(amountError('')).toBe(AMOUNT_MISSING);
    expect(amountError('   ')).toBe('Enter the treatment amount.');
    expect(amountError('0.99')).toBe(AMOUNT_RANGE);
    expect(AMOUNT_RANGE).toBe('Enter an amount between $1.00 and $100,000.00.');
    expect(amountError('100,000.01')).toBe(AMOUNT_RANGE);
    expect(amountError('twelve')).toBe(AMOUNT_RANGE);
    expect(amountError('1')).toBe('');
    // Read as the patient's own amounts are (lib/money parseDollars).
    expect(amountError('$3,200.00')).toBe('');
    expect(amountError('$100,000.00')).toBe('');
  });
});

describe('the invitation form', () => {
  const form: InviteForm = { amount: '$3,200', firstName: ' Ann ', lastName: '', mobilePhone: '', email: '', experienceType: 'in_store' };

  it('sends the amount in cents and only the fields filled in', () => {
    expect(inviteBody(form)).toEqual({ purchaseAmountCents: 320_000, firstName: 'Ann', experienceType: 'in_store' });
  });

  it('reads a phone number as the server does', () => {
    expect(phoneDigits(' +1 (555) 234-5678 ')).toBe('5552345678');
    expect(phoneDigits('15552345678')).toBe('5552345678');
    expect(phoneDigits('555.234.5678')).toBe('5552345678');
  });

  it('checks the optional phone and email only when typed', () => {
    expect(inviteErrors(form)).toEqual({});
    expect(inviteErrors({ ...form, mobilePhone: '(555) 234-5678', email: 'ann@example.com' })).toEqual({});
    expect(inviteErrors({ ...form, mobilePhone: '+1 555.234.5678', email: 'ann.approve@example.com' })).toEqual({});
    expect(inviteErrors({ ...form, mobilePhone: '1 (555) 234-5678' })).toEqual({});
    expect(inviteErrors({ ...form, email: 'ann@10minutemail.com' })).toEqual({
      email: 'This email address cannot be used. Enter another, or leave it empty.',
    });
    expect(inviteErrors({ ...form, amount: '', mobilePhone: '555-1234', email: 'ann@' })).toEqual({
      amount: AMOUNT_MISSING,
      mobilePhone: 'Enter a 10-digit US mobile number, or leave it empty.',
      email: 'Enter an email address like name@example.com, or leave it empty.',
    });
  });
});

describe('words', () => {
  it('a plan', () => {
    expect(
      planWords({
        providerKey: 'p',
        lenderName: 'Synchrony',
        typeId: 'fixed_rate',
        monthlyAmountCents: 12_345,
        durationMonths: 12,
        apr: 0,
        promoApr: 0,
        amountFinancedCents: 148_140,
      }),
    ).toBe('$123.45/mo × 12 months, 0% APR');
    expect(
      planWords({
        providerKey: 'p',
        lenderName: 'Fortiva',
        typeId: 'fixed_rate',
        monthlyAmountCents: 22_500,
        durationMonths: 24,
        apr: 17.9,
        promoApr: 0,
        amountFinancedCents: 1,
      }),
    ).toBe('$225.00/mo × 24 months, 17.9% APR');
    expect(
      planWords({
        providerKey: 'p',
        lenderName: 'Synchrony',
        typeId: 'deferred_interest',
        monthlyAmountCents: 53_334,
        durationMonths: 6,
        apr: 29.99,
        promoApr: 0,
        amountFinancedCents: 320_000,
      }),
    ).toBe('$533.34/mo × 6 months, no interest if paid in full in 6 months (29.99% APR after)');
  });

  it('history events, with the lender, and an unknown one as it is', () => {
    expect(eventWords({ type: 'decision.recorded', lenderName: 'Synchrony', at: '' })).toBe('Synchrony answered');
    expect(eventWords({ type: 'plan.selected', lenderName: 'Synchrony', at: '' })).toBe('Chose a plan (Synchrony)');
    expect(eventWords({ type: 'esign.signed', at: '' })).toBe('Signed');
    expect(eventWords({ type: 'flow.started', lenderName: 'Synchrony', at: '' })).toBe('Opened the link');
    expect(eventWords({ type: 'something.new', at: '' })).toBe('something.new');
  });
});

describe('the QR code', () => {
  it('draws each run of dark modules as one rectangle, inside a 4-module quiet zone', () => {
    expect(qrPath(['110', '011'])).toBe('M4 4h2v1h-2zM5 5h2v1h-2z');
    expect(qrPath(['000'])).toBe('');
  });
});
