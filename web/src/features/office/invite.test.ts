import { describe, expect, it } from 'vitest';
import { AMOUNT_MISSING, AMOUNT_RANGE, amountError, CONSENT_MISSING, inviteBody, inviteErrors, phoneDigits, type InviteForm } from './invite';
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
  const form: InviteForm = {
    amount: '$3,200',
    firstName: ' Ann ',
    lastName: '',
    mobilePhone: '',
    email: '',
    textConsent: false,
    language: 'en',
    experienceType: 'in_store',
  };

  it('sends the amount in cents and only the fields filled in', () => {
    expect(inviteBody(form)).toEqual({ purchaseAmountCents: 320_000, firstName: 'Ann', experienceType: 'in_store', language: 'en' });
    // The desk's record of the patient's agreement goes with a number only.
    expect(inviteBody({ ...form, mobilePhone: '5552345678', textConsent: true, language: 'es' })).toEqual({
      purchaseAmountCents: 320_000,
      firstName: 'Ann',
      mobilePhone: '5552345678',
      textConsent: true,
      experienceType: 'in_store',
      language: 'es',
    });
  });

  it('reads a phone number as the server does', () => {
    expect(phoneDigits(' +1 (555) 234-5678 ')).toBe('5552345678');
    expect(phoneDigits('15552345678')).toBe('5552345678');
    expect(phoneDigits('555.234.5678')).toBe('5552345678');
  });

  it('checks the optional phone and email only when typed, and a number needs the patient’s agreement', () => {
    expect(inviteErrors(form)).toEqual({});
    const agreed = { ...form, textConsent: true };
    expect(inviteErrors({ ...agreed, mobilePhone: '(555) 234-5678', email: 'ann@example.com' })).toEqual({});
    expect(inviteErrors({ ...agreed, mobilePhone: '+1 555.234.5678', email: 'ann.approve@example.com' })).toEqual({});
    expect(inviteErrors({ ...agreed, mobilePhone: '1 (555) 234-5678' })).toEqual({});
    expect(inviteErrors({ ...form, mobilePhone: '1 (555) 234-5678' })).toEqual({ textConsent: CONSENT_MISSING });
    expect(inviteErrors({ ...form, email: 'ann@10minutemail.com' })).toEqual({
      email: 'This email address cannot be used. Enter another, or leave it empty.',
    });
    expect(inviteErrors({ ...agreed, amount: '', mobilePhone: '555-1234', email: 'ann@' })).toEqual({
      amount: AMOUNT_MISSING,
      mobilePhone: 'Enter a 10-digit US mobile number, or leave it empty.',
      email: 'Enter an email address like name@example.com, or leave it empty.',
    });
  });
});

describe('words', () => {
  const plan = (over: Partial<Parameters<typeof planWords>[0]>) => ({
    providerKey: 'p',
    lenderName: 'Synchrony',
    typeId: 'fixed_rate',
    monthlyAmountCents: 22_444,
    paymentCount: 24,
    finalPaymentCents: 22_446,
    totalOfPaymentsCents: 22_444 * 23 + 22_446,
    downPaymentCents: 0,
    durationMonths: 24,
    apr: 17.9,
    promoApr: 0,
    amountFinancedCents: 450_000,
    ...over,
  });

  it('a plan, by its schedule: the last payment as it is, never every payment the same when it is not', () => {
    expect(planWords(plan({}))).toBe('23 × $224.44 + $224.46 final, 17.9% APR');
    expect(planWords(plan({ finalPaymentCents: 22_444, apr: 0 }))).toBe('24 × $224.44, 0% APR');
    expect(planWords(plan({ downPaymentCents: 50_000 }))).toBe('$500.00 down, 23 × $224.44 + $224.46 final, 17.9% APR');
  });

  it('a promotion paid off before its end, and a plan chosen before schedules were kept', () => {
    const promo = { typeId: 'deferred_interest', durationMonths: 6, apr: 29.99, amountFinancedCents: 10_000 };
    expect(planWords(plan({ ...promo, monthlyAmountCents: 3_000, paymentCount: 4, finalPaymentCents: 1_000 }))).toBe(
      '3 × $30.00 + $10.00 final, no interest if paid in full in 6 months (29.99% APR after)',
    );
    expect(planWords(plan({ ...promo, monthlyAmountCents: 53_334, paymentCount: 0, finalPaymentCents: 0 }))).toBe(
      '$533.34/mo × 6 months, no interest if paid in full in 6 months (29.99% APR after)',
    );
  });

  it('a lease states no APR', () => {
    const words = planWords(
      plan({
        productType: 'lease',
        apr: 0,
        monthlyAmountCents: 30_834,
        paymentCount: 12,
        finalPaymentCents: 30_826,
        totalOfPaymentsCents: 370_000,
        amountFinancedCents: 200_000,
      }),
    );
    expect(words).toBe('11 × $308.34 + $308.26 final, lease-to-own, $3,700.00 in payments for a cash price of $2,000.00');
    expect(words).not.toMatch(/APR/);
  });

  it('history events, with the lender, and an unknown one as it is', () => {
    expect(eventWords({ type: 'decision.recorded', lenderName: 'Synchrony', at: '' })).toBe('Synchrony answered');
    expect(eventWords({ type: 'plan.selected', lenderName: 'Synchrony', at: '' })).toBe('Chose a plan (Synchrony)');
    expect(eventWords({ type: 'esign.signed', at: '' })).toBe('Signed');
    expect(eventWords({ type: 'flow.started', lenderName: 'Synchrony', at: '' })).toBe('Opened the link');
    // The office's changes, in words: the amount before signing, a refund after.
    expect(eventWords({ type: 'application.amount_changed', at: '' })).toBe('The office changed the treatment amount');
    expect(eventWords({ type: 'offer.amount.done', lenderName: 'Synchrony', at: '' })).toBe('Synchrony let the accepted offer go');
    expect(eventWords({ type: 'case.refund.done', lenderName: 'Synchrony', at: '' })).toBe('Refunded (Synchrony)');
    expect(eventWords({ type: 'something.new', at: '' })).toBe('something.new');
  });

  it('a finish says how the visit ended; one recorded without an outcome says only that it finished', () => {
    // Before: every finish read "Finished", a decline as a completed signature.
    expect(eventWords({ type: 'flow.finished', outcome: 'declined', at: '' })).toBe('Finished: declined');
    expect(eventWords({ type: 'flow.finished', outcome: 'completed', at: '' })).toBe('Finished: signed and completed');
    expect(eventWords({ type: 'flow.finished', outcome: 'no_financing', at: '' })).toBe('Finished without taking an offer');
    expect(eventWords({ type: 'flow.finished', at: '' })).toBe('Finished');
  });
});

describe('the QR code', () => {
  it('draws each run of dark modules as one rectangle, inside a 4-module quiet zone', () => {
    expect(qrPath(['110', '011'])).toBe('M4 4h2v1h-2zM5 5h2v1h-2z');
    expect(qrPath(['000'])).toBe('');
  });
});

describe('what became of an invitation’s messages, in words', () => {
  it('says delivered, why a text was not, and what to do when the patient stopped texts', async () => {
    const { messageWords } = await import('./words');
    expect(messageWords({ channel: 'sms', to: '(•••) •••-0134', state: 'delivered', sends: 1 })).toBe('Text to (•••) •••-0134: delivered');
    expect(messageWords({ channel: 'sms', to: '(•••) •••-0134', state: 'delivered', sends: 2 })).toBe(
      'Text to (•••) •••-0134: delivered (sent 2 times)',
    );
    expect(messageWords({ channel: 'sms', to: '(•••) •••-0134', state: 'undelivered', errorCode: 30006, sends: 1 })).toBe(
      'Text to (•••) •••-0134: not delivered (the number is a landline)',
    );
    expect(messageWords({ channel: 'sms', to: '(•••) •••-0134', state: 'undelivered', errorCode: 30999, sends: 1 })).toBe(
      'Text to (•••) •••-0134: not delivered (error 30999)',
    );
    expect(messageWords({ channel: 'sms', to: '(•••) •••-0134', state: 'opted_out', sends: 1 })).toMatch(
      /^Text to \(•••\) •••-0134: opted out, the patient asked this office to stop texting them\. Hand over the QR code/,
    );
    expect(messageWords({ channel: 'email', to: 'm•••@example.com', state: 'sent', sends: 1 })).toBe('Email to m•••@example.com: sent');
    expect(messageWords({ channel: 'email', to: 'm•••@example.com', state: 'held', sends: 1 })).toBe(
      'Email to m•••@example.com: kept back, sent only if the text does not arrive',
    );
  });
});
