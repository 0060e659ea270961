import { useCallback, useEffect, useMemo, useRef } from 'react';
import type { FieldValues } from 'react-hook-form';
import type { FieldDefinition } from '@/lib/api/types';
import { fieldType, messages, validateField } from '@/lib/validation';
import { checkEmail, checkPhone, checkZipCode } from './api/validate';

/** How long after a field loses focus the server is asked, so tabbing through the form asks only for where the patient stops. */
export const REMOTE_CHECK_DELAY_MS = 300;

/** One field the server checks, and the field whose value goes with it (the state of a ZIP code). */
interface RemoteField {
  def: FieldDefinition;
  kind: 'email' | 'phone' | 'zipCode';
  stateId?: string;
}

/** remoteFields answers the fields of a form the server checks on blur, each ZIP code paired with its state field. */
function remoteFields(fields: FieldDefinition[]): RemoteField[] {
  const out: RemoteField[] = [];
  for (const def of fields) {
    const type = fieldType(def, () => undefined);
    if (type === 'email') out.push({ def, kind: 'email' });
    else if (type === 'phone' || type === 'dynamicPhone') out.push({ def, kind: 'phone' });
    else if (type === 'zipCode') {
      const states = fields.filter((f) => fieldType(f, () => undefined) === 'state');
      const state = states.find((f) => f.group === def.group) ?? states.find((f) => f.id === 'addressState');
      out.push({ def, kind: 'zipCode', stateId: state?.id });
    }
  }
  return out;
}

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/** What the server judges for a field: its value, and for a ZIP code the state too. */
function subjectOf(f: RemoteField, values: FieldValues): string | null {
  const value = text(values[f.def.id]);
  if (!value || validateField(f.def, value) !== null) return null;
  if (f.kind !== 'zipCode') return value;
  const state = f.stateId ? text(values[f.stateId]) : '';
  return state ? `${value}|${state}` : null;
}

function ask(f: RemoteField, subject: string, signal: AbortSignal): Promise<boolean> {
  if (f.kind === 'email') return checkEmail(subject, signal);
  if (f.kind === 'phone') return checkPhone(subject, signal);
  const [zip = '', state = ''] = subject.split('|');
  return checkZipCode(zip, state, signal);
}

function messageFor(f: RemoteField): string {
  if (f.kind === 'email') return messages.email;
  if (f.kind === 'phone') return messages.phone(f.def.label ?? f.def.name);
  return messages.zip;
}

export interface RemoteChecks {
  /** onBlurred starts the server's check of the fields that depend on this one, once its own checks pass. */
  onBlurred(fieldId: string): void;
  /** errorFor answers the server's message for a field's current value, or null (not checked, valid, or the call failed). */
  errorFor(fieldId: string, values: FieldValues): string | null;
}

/**
 * useRemoteChecks runs the server's checks of email, phone and ZIP fields
 * when one loses focus and its own checks passed (docs/behaviour.md,
 * "Validation"). A check waits REMOTE_CHECK_DELAY_MS, a newer one for the same
 * field cancels it, and its answer counts only while the value is unchanged,
 * so typing is never held up. The verdict is kept by value: `revalidate`
 * (react-hook-form's trigger) shows it as the field's error through
 * errorFor, and it holds on submit. A call that fails is ignored.
 */
export function useRemoteChecks(fields: FieldDefinition[], getValues: () => FieldValues, revalidate: (fieldId: string) => void): RemoteChecks {
  const checked = useMemo(() => remoteFields(fields), [fields]);
  /** The server's message by field, for the subject it judged (null: valid). */
  const verdicts = useRef(new Map<string, { subject: string; message: string | null }>());
  const pending = useRef(new Map<string, { timer: ReturnType<typeof setTimeout>; abort: AbortController }>());

  const cancel = useCallback((id: string) => {
    const p = pending.current.get(id);
    if (!p) return;
    clearTimeout(p.timer);
    p.abort.abort();
    pending.current.delete(id);
  }, []);

  useEffect(() => {
    const all = pending.current;
    return () => {
      for (const id of [...all.keys()]) {
        const p = all.get(id)!;
        clearTimeout(p.timer);
        p.abort.abort();
      }
      all.clear();
    };
  }, []);

  const start = useCallback(
    (f: RemoteField) => {
      const id = f.def.id;
      cancel(id);
      const subject = subjectOf(f, getValues());
      const verdict = verdicts.current.get(id);
      // A field the server judged before shows the verdict for what it holds now (none for another value).
      if (verdict) revalidate(id);
      if (!subject || verdict?.subject === subject) return;
      const abort = new AbortController();
      const timer = setTimeout(() => {
        ask(f, subject, abort.signal).then(
          (valid) => {
            if (abort.signal.aborted) return;
            pending.current.delete(id);
            verdicts.current.set(id, { subject, message: valid ? null : messageFor(f) });
            // Shown only while the field still holds what was checked.
            if (subjectOf(f, getValues()) === subject) revalidate(id);
          },
          () => {
            if (!abort.signal.aborted) pending.current.delete(id);
          },
        );
      }, REMOTE_CHECK_DELAY_MS);
      pending.current.set(id, { timer, abort });
    },
    [cancel, getValues, revalidate],
  );

  const onBlurred = useCallback(
    (fieldId: string) => {
      for (const f of checked) if (f.def.id === fieldId || f.stateId === fieldId) start(f);
    },
    [checked, start],
  );

  const errorFor = useCallback(
    (fieldId: string, values: FieldValues) => {
      const f = checked.find((c) => c.def.id === fieldId);
      const verdict = verdicts.current.get(fieldId);
      if (!f || !verdict) return null;
      return subjectOf(f, values) === verdict.subject ? verdict.message : null;
    },
    [checked],
  );

  return useMemo(() => ({ onBlurred, errorFor }), [onBlurred, errorFor]);
}
