import type { ApplyMode, FieldError } from '@/lib/api/types';
import { isWholeNumberField, messages, parseWholeNumber, toApiValue } from '@/lib/validation';
import { flow, type ApplicantValues } from '@/stores/flow';
import { ensureFields, fieldDefs } from './fields';

function applicantBody(values: ApplicantValues, providerKey: string, mode: ApplyMode): Record<string, unknown> {
  const defs = fieldDefs(providerKey, mode);
  const out: Record<string, unknown> = {};
  const seen = new Set<string>();
  for (const def of defs) {
    if (seen.has(def.id)) continue;
    seen.add(def.id);
    if (def.id === 'jointEnabled' || def.id === 'purchaseAmountCents') continue;
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

/** applicationBody is what prequalify, prescreen and apply receive. */
export function applicationBody(providerKey: string, mode: ApplyMode): Record<string, unknown> {
  const s = flow.get();
  const body: Record<string, unknown> = {
    primary: applicantBody(s.primary, providerKey, mode),
    jointEnabled: s.jointEnabled,
  };
  if (s.jointEnabled) body.joint = applicantBody(s.joint, providerKey, mode);
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
