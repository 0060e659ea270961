import type { ApplyMode, FieldDefinition, FieldError } from '@/lib/api/types';
import { isWholeNumberField, messages, parseWholeNumber, toApiValue } from '@/lib/validation';
import { flow, type ApplicantValues } from '@/stores/flow';
import { ensureFields, fieldDefs } from './fields';

/** The id of the treatment amount field, which the server lists while the application has no amount. */
export const PURCHASE_AMOUNT_ID = 'purchaseAmountCents';

function applicantBody(values: ApplicantValues, providerKey: string, mode: ApplyMode): Record<string, unknown> {
  const defs = fieldDefs(providerKey, mode);
  const out: Record<string, unknown> = {};
  const seen = new Set<string>();
  for (const def of defs) {
    if (seen.has(def.id)) continue;
    seen.add(def.id);
    if (def.id === 'jointEnabled' || def.id === PURCHASE_AMOUNT_ID) continue;
    const v = toApiValue(def, values[def.id]);
    if (v !== undefined) out[def.path || def.id] = v;
  }
  // Dynamic phone: the chosen type decides which field carries the number (docs/behaviour.md, "Validation").
  for (const def of defs.filter((d) => d.type === 'dynamicPhone')) {
    const type = values[`${def.id}Type`] === 'home' ? 'home' : 'mobile';
    const num = out[def.path || def.id];
    if (num !== undefined && def.id !== 'mobilePhone' && def.id !== 'homePhone') {
      delete out[def.path || def.id];
      out[type === 'home' ? 'homePhone' : 'mobilePhone'] = num;
    } else if (num !== undefined) {
      delete out.homePhone;
      delete out.mobilePhone;
      out[type === 'home' ? 'homePhone' : 'mobilePhone'] = num;
    }
  }
  return out;
}

/**
 * formFields are the fields an applicant's form shows: the treatment amount
 * belongs to the application, so only the primary applicant's form asks for
 * it, and only while the session has no amount (the office's, or one the
 * patient already sent).
 */
export function formFields(fields: FieldDefinition[], applicant: 'primary' | 'joint', sessionAmountCents: number): FieldDefinition[] {
  if (applicant === 'primary' && !sessionAmountCents) return fields;
  return fields.filter((f) => f.id !== PURCHASE_AMOUNT_ID);
}

/** enteredAmount is the treatment amount the patient typed, in cents, while the session has none. */
function enteredAmount(providerKey: string, mode: ApplyMode): number | undefined {
  const s = flow.get();
  if (s.purchaseAmountCents) return undefined;
  const def = fieldDefs(providerKey, mode).find((d) => d.id === PURCHASE_AMOUNT_ID);
  const v = def ? toApiValue(def, s.primary[PURCHASE_AMOUNT_ID]) : undefined;
  return typeof v === 'number' ? v : undefined;
}

/** applicationBody is what prequalify, prescreen and apply receive. */
export function applicationBody(providerKey: string, mode: ApplyMode): Record<string, unknown> {
  const s = flow.get();
  const body: Record<string, unknown> = {
    primary: applicantBody(s.primary, providerKey, mode),
    jointEnabled: s.jointEnabled,
  };
  if (s.jointEnabled) body.joint = applicantBody(s.joint, providerKey, mode);
  const amount = enteredAmount(providerKey, mode);
  if (amount !== undefined) body[PURCHASE_AMOUNT_ID] = amount;
  return body;
}

/**
 * unsendableNumbers lists the whole-number fields (months employed, housing
 * months …) holding something that is not a whole number, such as "2.5". Such
 * a value is never sent as some other number: the patient is shown the field
 * with the words the server would answer.
 */
export function unsendableNumbers(providerKey: string, mode: ApplyMode): FieldError[] {
  const s = flow.get();
  const out: FieldError[] = [];
  const applicants: ['primary' | 'joint', ApplicantValues][] = [['primary', s.primary]];
  if (s.jointEnabled) applicants.push(['joint', s.joint]);
  const seen = new Set<string>();
  for (const def of fieldDefs(providerKey, mode)) {
    if (seen.has(def.id) || !isWholeNumberField(def)) continue;
    seen.add(def.id);
    for (const [applicant, values] of applicants) {
      const v = values[def.id];
      if (typeof v !== 'string' || v.trim() === '') continue;
      const parsed = parseWholeNumber(v);
      if (!parsed.ok) out.push({ field: `${applicant}.${def.id}`, message: parsed.reason === 'notWhole' ? messages.wholeNumber : messages.invalid });
    }
  }
  return out;
}

/**
 * applicantData is what this feature hands the submit (features/results/api/submit.ts,
 * wired in app/submissions.ts): the form's field definitions, the body built
 * from what the patient typed, and the values that cannot be sent.
 */
export const applicantData = {
  ensureFields,
  body: applicationBody,
  unsendable: unsendableNumbers,
};
