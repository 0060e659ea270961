import { parseDollars } from '@/lib/money';
import { emailProblem, isPhone, messages } from '@/lib/validation';
import type { ExperienceType, OfficeInviteRequest } from './api/applications';

/*
 * The invitation form's rules, checked before sending so that the staff
 * member hears about a typo at once; the server checks them again and its
 * field errors land on the same fields.
 */

export const MIN_CENTS = 100;
export const MAX_CENTS = 10_000_000;

export const AMOUNT_MISSING = 'Enter the treatment amount.';
export const AMOUNT_RANGE = 'Enter an amount between $1.00 and $100,000.00.';

/** centsToDollarText writes cents as the amount field takes them: "1867.50". */
export function centsToDollarText(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** amountError is the words for a treatment amount that cannot be sent, or '' when it can. */
export function amountError(text: string): string {
  if (!text.trim()) return AMOUNT_MISSING;
  const cents = parseDollars(text);
  return cents === null || cents < MIN_CENTS || cents > MAX_CENTS ? AMOUNT_RANGE : '';
}

export interface InviteForm {
  amount: string;
  firstName: string;
  lastName: string;
  mobilePhone: string;
  email: string;
  /** textConsent: the patient gave this number to be texted the link (required with a number). */
  textConsent: boolean;
  language: 'en' | 'es';
  experienceType: ExperienceType;
}

export type InviteField = keyof InviteForm;
export type InviteErrors = Partial<Record<InviteField, string>>;

/** FIELD_ORDER is the form's order, for focusing the first field in error. */
export const FIELD_ORDER: InviteField[] = ['amount', 'firstName', 'lastName', 'mobilePhone', 'textConsent', 'email', 'language', 'experienceType'];

/** CONSENT_MISSING: a number to text, without the patient's agreement to be texted (the TCPA's ask). */
export const CONSENT_MISSING = 'Confirm that the patient gave you this number to be texted the link, or leave the mobile number empty.';

/** phoneDigits drops what the server drops around a US number: spaces, dashes, dots, brackets and a leading +1 (office/invite.go). */
export function phoneDigits(s: string): string {
  const d = s
    .trim()
    .replace(/^\+1/, '')
    .replace(/[\s\-.()]/g, '');
  return d.length === 11 && d.startsWith('1') ? d.slice(1) : d;
}

/**
 * inviteErrors checks the form; the optional fields only when something
 * was typed, with the patient form's own checks for a phone and an email
 * (lib/validation), which the server applies to an invitation too. The
 * names' rules (length, characters) are the patient form's as well, and
 * only the server holds them here: its field errors land on the names.
 */
export function inviteErrors(f: InviteForm): InviteErrors {
  const e: InviteErrors = {};
  const amount = amountError(f.amount);
  if (amount) e.amount = amount;
  if (f.mobilePhone.trim() && !isPhone(phoneDigits(f.mobilePhone))) e.mobilePhone = 'Enter a 10-digit US mobile number, or leave it empty.';
  if (f.mobilePhone.trim() && !f.textConsent) e.textConsent = CONSENT_MISSING;
  const email = f.email.trim();
  const problem = email ? emailProblem(email) : null;
  if (problem === messages.emailUnsupported) e.email = 'This email address cannot be used. Enter another, or leave it empty.';
  else if (problem) e.email = 'Enter an email address like name@example.com, or leave it empty.';
  return e;
}

/** inviteBody is what the server is sent: the amount in cents, and only the optional fields that were filled in. */
export function inviteBody(f: InviteForm): OfficeInviteRequest {
  const body: OfficeInviteRequest = { purchaseAmountCents: parseDollars(f.amount) ?? 0, experienceType: f.experienceType, language: f.language };
  const first = f.firstName.trim();
  const last = f.lastName.trim();
  const phone = f.mobilePhone.trim();
  const email = f.email.trim();
  if (first) body.firstName = first;
  if (last) body.lastName = last;
  if (phone) {
    body.mobilePhone = phone;
    body.textConsent = f.textConsent;
  }
  if (email) body.email = email;
  return body;
}

/** SERVER_FIELDS maps the body's members, as the server names them in field errors, to the form's fields. */
export const SERVER_FIELDS: Record<string, InviteField> = {
  purchaseAmountCents: 'amount',
  firstName: 'firstName',
  lastName: 'lastName',
  mobilePhone: 'mobilePhone',
  email: 'email',
  textConsent: 'textConsent',
  language: 'language',
  experienceType: 'experienceType',
};
