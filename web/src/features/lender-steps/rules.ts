import { isPhone, isPoBox, isState, ZIP, zipForState } from '@/lib/validation';

/*
 * The checks of the additional contact (docs/behaviour.md, "What each lender
 * asks for"): the same rules and words as the server's
 * validate/lendersteps.go, applied first for speed.
 */

export interface ContactForm {
  name: string;
  relationship: string;
  /** As typed; only its digits are sent. */
  phone: string;
}

export const RELATIONSHIPS: { value: string; label: string }[] = [
  { value: 'parent', label: 'Parent' },
  { value: 'child', label: 'Son or daughter' },
  { value: 'sibling', label: 'Brother or sister' },
  { value: 'other_relative', label: 'Another relative' },
  { value: 'friend', label: 'Friend' },
  { value: 'coworker', label: 'Coworker' },
];

const NAME = /^[\p{L}\p{M} '’.-]+$/u;

export const phoneDigits = (s: string): string => s.replace(/\D/g, '').slice(0, 10);

/** maskPhone shapes up to 10 digits as (312) 555-0187. */
export function maskPhone(raw: string): string {
  const d = phoneDigits(raw);
  if (d.length <= 3) return d;
  if (d.length <= 6) return `(${d.slice(0, 3)}) ${d.slice(3)}`;
  return `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`;
}

export function contactErrors(f: ContactForm): Record<string, string> {
  const e: Record<string, string> = {};
  const name = f.name.trim().split(/\s+/).join(' ');
  const len = [...name].length;
  if (!name) e.name = 'Required Field';
  else if (len < 2 || len > 60) e.name = 'Please enter their full name (2 to 60 characters).';
  else if (!NAME.test(name)) e.name = 'A name may use letters, spaces, apostrophes, periods and hyphens.';
  if (!f.relationship) e.relationship = 'Required Field';
  else if (!RELATIONSHIPS.some((r) => r.value === f.relationship)) e.relationship = 'Please choose how you know them.';
  const phone = phoneDigits(f.phone);
  if (!phone) e.phone = 'Required Field';
  else if (!isPhone(phone)) e.phone = 'Please enter their 10-digit phone number.';
  return e;
}

/** The spouse of a married Wisconsin applicant, as typed. */
export interface SpouseForm {
  firstName: string;
  lastName: string;
  addressLine1: string;
  addressLine2: string;
  city: string;
  state: string;
  zipCode: string;
}

const ADDRESS = /^[\p{L}\p{M}\p{N} '’.,#/-]+$/u;

/** spouseErrors: the server's validate.Spouse, the same words. */
export function spouseErrors(f: SpouseForm): Record<string, string> {
  const e: Record<string, string> = {};
  const text = (field: keyof SpouseForm, max: number, pattern: RegExp, chars: string, optional = false) => {
    const v = f[field].trim();
    if (!v) {
      if (!optional) e[field] = 'Required Field';
    } else if ([...v].length > max) e[field] = `Please keep this under ${max + 1} characters.`;
    else if (!pattern.test(v)) e[field] = chars;
  };
  const nameChars = 'A name may use letters, spaces, apostrophes, periods and hyphens.';
  const addressChars = "An address may use letters, numbers, spaces and ' . , # / -.";
  text('firstName', 40, NAME, nameChars);
  text('lastName', 40, NAME, nameChars);
  text('addressLine1', 60, ADDRESS, addressChars);
  text('addressLine2', 60, ADDRESS, addressChars, true);
  text('city', 40, NAME, 'A city may use letters, spaces, apostrophes, periods and hyphens.');
  if (f.addressLine1.trim() && !e.addressLine1 && isPoBox(f.addressLine1)) e.addressLine1 = 'P.O. Box Not Allowed';
  if (!f.state) e.state = 'Required Field';
  else if (!isState(f.state)) e.state = 'Please choose a state.';
  if (!f.zipCode) e.zipCode = 'Required Field';
  else if (!ZIP.test(f.zipCode)) e.zipCode = 'Please enter a 5-digit ZIP code.';
  else if (!e.state && !zipForState(f.zipCode, f.state)) e.zipCode = 'Zip Code not valid for state';
  return e;
}
