import { describe, expect, it } from 'vitest';
import { bankAccountErrors, cardErrors, cardValid, cvvValid, expiryValid, luhnValid, maskCard, maskExpiry, routingValid } from './payment';

describe('payment masks and checks', () => {
  it('checks the routing number checksum', () => {
    expect(routingValid('011000015')).toBe(true);
    expect(routingValid('011000016')).toBe(false);
    expect(routingValid('01100001')).toBe(false);
  });
  it('checks card numbers with Luhn and the Amex length', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(cardValid('4111111111111111')).toBe(true);
    expect(cardValid('4111111111111112')).toBe(false);
    expect(cardValid('378282246310005')).toBe(true);
    expect(cardValid('411111111111111')).toBe(false);
  });
  it('wants 4 CVV digits for Amex, 3 otherwise', () => {
    expect(cvvValid('123', '4111111111111111')).toBe(true);
    expect(cvvValid('1234', '4111111111111111')).toBe(false);
    expect(cvvValid('1234', '378282246310005')).toBe(true);
    expect(cvvValid('123', '378282246310005')).toBe(false);
  });
  it('masks the card 4-4-4-4, Amex 4-6-5, and the expiry MM/YY', () => {
    expect(maskCard('4111111111111111999')).toBe('4111 1111 1111 1111');
    expect(maskCard('378282246310005')).toBe('3782 822463 10005');
    expect(maskCard('3782822463100059')).toBe('3782 822463 10005');
    expect(maskExpiry('1299')).toBe('12/99');
    expect(maskExpiry('1a2')).toBe('12');
  });
  it('refuses an expiry in the past', () => {
    const now = new Date(2026, 10, 23);
    expect(expiryValid('11/26', now)).toBe(true);
    expect(expiryValid('10/26', now)).toBe(false);
    expect(expiryValid('13/30', now)).toBe(false);
  });
  it('names each bad field in the patient’s words', () => {
    expect(bankAccountErrors({ routingNumber: '01100001', accountNumber: '1234', bankName: 'B' }).routingNumber).toBe(
      'Please enter the 9-digit routing number printed on your checks.',
    );
    expect(bankAccountErrors({ routingNumber: '011000028', accountNumber: '1234', bankName: 'B' })).toEqual({});
    expect(bankAccountErrors({ routingNumber: '011000016', accountNumber: '12', bankName: '' })).toEqual({
      routingNumber: 'This isn’t a routing number we recognize. Please check each digit against your checks.',
      accountNumber: 'Your account number has 4 to 17 digits.',
      bankName: 'Required Field',
    });
    const e = cardErrors({ cardholderName: 'Pat', cardNumber: '4111111111111111', expiry: '01/20', cvv: '12', zip: '123' });
    expect(Object.keys(e).sort()).toEqual(['cvv', 'expiry', 'zip']);
  });
});
