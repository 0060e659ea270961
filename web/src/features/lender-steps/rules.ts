import { t } from '@/lib/i18n';
import { isPhone, isPoBox, isState, ZIP, zipForState } from '@/lib/validation';

/*
 * The checks of the additional contact (docs/behaviour.md, "What each lender
 * asks for"): the same rules and words as the server's
 * validate/lendersteps.go, applied first for speed. The words are in the
 * patient's language at the moment of the check, as the server's are.
 */

export interface ContactForm {
  name: string;
  relationship: string;
  /** As typed; only its digits are sent. */
  phone: string;
}

/** The relationships the lender takes, in the order offered; each is named by relationshipLabel. */
export const RELATIONSHIPS = ['parent', 'child', 'sibling', 'other_relative', 'friend', 'coworker'] as const;
export type Relationship = (typeof RELATIONSHIPS)[number];

/** relationshipLabel names a relationship in the patient's language (call it at render). */
export const relationshipLabel = (r: Relationship): string => t(`lenderSteps.contact.relationships.${r}`);

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
  if (!name) e.name = t('lenderSteps.errors.required');
  else if (len < 2 || len > 60) e.name = t('lenderSteps.errors.contactNameLength');
  else if (!NAME.test(name)) e.name = t('lenderSteps.errors.nameChars');
  if (!f.relationship) e.relationship = t('lenderSteps.errors.required');
  else if (!(RELATIONSHIPS as readonly string[]).includes(f.relationship)) e.relationship = t('lenderSteps.errors.relationship');
  const phone = phoneDigits(f.phone);
  if (!phone) e.phone = t('lenderSteps.errors.required');
  else if (!isPhone(phone)) e.phone = t('lenderSteps.errors.phone');
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
      if (!optional) e[field] = t('lenderSteps.errors.required');
    } else if ([...v].length > max) e[field] = t('lenderSteps.errors.tooLong', { max: max + 1 });
    else if (!pattern.test(v)) e[field] = chars;
  };
  const nameChars = t('lenderSteps.errors.nameChars');
  const addressChars = t('lenderSteps.errors.addressChars');
  text('firstName', 40, NAME, nameChars);
  text('lastName', 40, NAME, nameChars);
  text('addressLine1', 60, ADDRESS, addressChars);
  text('addressLine2', 60, ADDRESS, addressChars, true);
  text('city', 40, NAME, t('lenderSteps.errors.cityChars'));
  if (f.addressLine1.trim() && !e.addressLine1 && isPoBox(f.addressLine1)) e.addressLine1 = t('lenderSteps.errors.poBox');
  if (!f.state) e.state = t('lenderSteps.errors.required');
  else if (!isState(f.state)) e.state = t('lenderSteps.errors.state');
  if (!f.zipCode) e.zipCode = t('lenderSteps.errors.required');
  else if (!ZIP.test(f.zipCode)) e.zipCode = t('lenderSteps.errors.zip');
  else if (!e.state && !zipForState(f.zipCode, f.state)) e.zipCode = t('lenderSteps.errors.zipState');
  return e;
}
