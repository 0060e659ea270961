import { t } from './i18n';

/*
 * The payment method's masks and checks (docs/behaviour.md, "What each lender
 * asks for"): the same rules as the server's validate/payment.go, applied
 * first for speed, their words in the patient's language at the moment of the
 * check. Card numbers and CVVs pass through these functions and are never
 * stored anywhere by them.
 */

export const digitsOnly = (s: string, max: number): string => s.replace(/\D/g, '').slice(0, max);

/** isAmex: an American Express number starts with 3 (15 digits, 4-digit CVV). */
export const isAmex = (card: string): boolean => card.startsWith('3');

export const cardLength = (card: string): number => (isAmex(card) ? 15 : 16);
export const cvvLength = (card: string): number => (isAmex(card) ? 4 : 3);

/** maskCard groups the digits as printed on the card: 4-4-4-4, or 4-6-5 for Amex. */
export function maskCard(raw: string): string {
  const d = digitsOnly(raw, 16);
  const n = digitsOnly(d, cardLength(d));
  const groups = isAmex(n) ? [4, 6, 5] : [4, 4, 4, 4];
  const out: string[] = [];
  let i = 0;
  for (const g of groups) {
    if (i >= n.length) break;
    out.push(n.slice(i, i + g));
    i += g;
  }
  return out.join(' ');
}

/** maskExpiry shapes the expiry as MM/YY. */
export function maskExpiry(raw: string): string {
  const d = digitsOnly(raw, 4);
  return d.length > 2 ? `${d.slice(0, 2)}/${d.slice(2)}` : d;
}

/** routingValid: 9 digits whose ABA checksum (weights 3, 7, 1) is a multiple of ten. */
export function routingValid(s: string): boolean {
  if (!/^\d{9}$/.test(s)) return false;
  const w = [3, 7, 1];
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += Number(s[i]) * (w[i % 3] ?? 0);
  return sum % 10 === 0;
}

/** luhnValid: doubling every second digit from the right, the digit sum is a multiple of ten. */
export function luhnValid(s: string): boolean {
  let sum = 0;
  for (let i = 0; i < s.length; i++) {
    let d = Number(s[s.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export const cardValid = (card: string): boolean => /^\d+$/.test(card) && card.length === cardLength(card) && luhnValid(card);
export const cvvValid = (cvv: string, card: string): boolean => /^\d+$/.test(cvv) && cvv.length === cvvLength(card);

/** expiryParts reads MM/YY as a month and a four-digit year, null when unreadable. */
export function expiryParts(mmyy: string): { month: number; year: number } | null {
  const m = /^(\d{2})\/(\d{2})$/.exec(mmyy);
  if (!m) return null;
  return { month: Number(m[1]), year: 2000 + Number(m[2]) };
}

/** expiryValid: a real month not before the current one. */
export function expiryValid(mmyy: string, now = new Date()): boolean {
  const p = expiryParts(mmyy);
  if (!p || p.month < 1 || p.month > 12) return false;
  const y = now.getFullYear();
  const m = now.getMonth() + 1;
  return p.year > y || (p.year === y && p.month >= m);
}

export interface BankAccountForm {
  routingNumber: string;
  accountNumber: string;
  bankName: string;
}

export type Errors = Record<string, string>;

export function bankAccountErrors(f: BankAccountForm): Errors {
  const e: Errors = {};
  if (!f.routingNumber) e.routingNumber = t('payment.errors.required');
  else if (!/^\d{9}$/.test(f.routingNumber)) e.routingNumber = t('payment.errors.routingDigits');
  // Nine digits that are no bank's (validate/payment.go, the same words).
  else if (!routingValid(f.routingNumber)) e.routingNumber = t('payment.errors.routingUnknown');
  if (!f.accountNumber) e.accountNumber = t('payment.errors.required');
  else if (!/^\d{4,17}$/.test(f.accountNumber)) e.accountNumber = t('payment.errors.accountDigits');
  if (!f.bankName.trim()) e.bankName = t('payment.errors.required');
  return e;
}

export interface CardForm {
  cardholderName: string;
  cardNumber: string;
  expiry: string;
  cvv: string;
  zip: string;
}

export function cardErrors(f: CardForm, now = new Date()): Errors {
  const e: Errors = {};
  if (!f.cardholderName.trim()) e.cardholderName = t('payment.errors.required');
  if (!f.cardNumber) e.cardNumber = t('payment.errors.required');
  else if (!cardValid(f.cardNumber)) e.cardNumber = t('payment.errors.cardNumber');
  if (!expiryValid(f.expiry, now)) e.expiry = t('payment.errors.expiry');
  if (!f.cvv) e.cvv = t('payment.errors.required');
  else if (!cvvValid(f.cvv, f.cardNumber)) e.cvv = t('payment.errors.cvv');
  if (!/^\d{5}$/.test(f.zip)) e.zip = f.zip ? t('payment.errors.zip') : t('payment.errors.required');
  return e;
}
