import { memo, useState } from 'react';
import { Controller, type Control, type FieldValues } from 'react-hook-form';
import type { FieldDefinition } from '@/lib/api/types';
import { serverText } from '@/lib/serverText';
import { fieldType, isRequired, isWholeNumberField, US_STATES, validateField } from '@/lib/validation';
import { maskUsDate, normalizeUsDate } from '@/lib/dates';
import { maskFor } from '@/lib/masks';
import { useT } from '@/lib/i18n';
import { AUTOCOMPLETE } from './autocomplete';
import { MaskedInput } from '@/components/MaskedInput';
import type { RemoteChecks } from './useRemoteChecks';

/** Date fields take MM/DD/YYYY, MM/YYYY or MM/YY, shaped by lib/dates' own mask rather than a fixed pattern. */
const isDate = (type: string) => type === 'date' || type === 'local_date';

/** Our hint for a field type the server gave none for, by its message name (application.field.hints). */
const HINTS: Partial<Record<string, 'ssn' | 'phone' | 'zipCode' | 'date'>> = {
  ssn: 'ssn',
  phone: 'phone',
  dynamicPhone: 'phone',
  zipCode: 'zipCode',
  date: 'date',
  local_date: 'date',
};

export interface FieldControlProps {
  def: FieldDefinition;
  applicant: 'primary' | 'joint';
  control: Control<FieldValues>;
  error?: string;
  /** Part of a "fill at least one" group: neither required nor optional on its own. */
  inGroup?: boolean;
  /** The server's checks of the form (email, phone, ZIP code), run when a field loses focus. */
  remote?: RemoteChecks;
}

export const domId = (applicant: string, id: string) => `${applicant}-${id}`;

/**
 * FieldControl renders one field definition from the server (docs/behaviour.md, "What each lender asks for").
 * It renders again only when its own props change: the form re-renders whole for each change of its state
 * (react-hook-form), the first time as it mounts, and the fields need not follow it
 * (docs/performance.md, "The application screen").
 */
export const FieldControl = memo(function FieldControl({ def, applicant, control, error, inGroup = false, remote }: FieldControlProps) {
  const t = useT();
  const type = fieldType(def);
  const id = domId(applicant, def.id);
  const required = isRequired(def);
  const hint = HINTS[type];
  const mask = maskFor(type);
  // The server's words, in the language shown now (lib/serverText.ts): the patient may have switched since they came.
  const hintText = serverText(def.hint) || (hint ? t(`application.field.hints.${hint}`) : undefined);
  const hintId = hintText ? `${id}-hint` : undefined;
  const errId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errId].filter(Boolean).join(' ') || undefined;
  const label = serverText(def.label) || def.name;
  const ac0 = def.autocomplete || AUTOCOMPLETE[def.id];
  const autoComplete = ac0 && ac0 !== 'off' && applicant === 'joint' ? `section-joint ${ac0}` : ac0;
  const [show, setShow] = useState(false);
  // A whole number is typed as text (never type="number", which would drop or round what was typed) and checked as typed.
  const whole = isWholeNumberField(def);

  const labelEl = (
    <>
      {label}
      {required ? (
        <>
          <span className="req" aria-hidden="true">
            *
          </span>
          <span className="visually-hidden">{t('application.field.required')}</span>
        </>
      ) : inGroup ? null : (
        <span className="muted optional">{t('application.field.optional')}</span>
      )}
    </>
  );
  const hintEl = hintText ? (
    <span id={hintId} className="hint">
      {hintText}
    </span>
  ) : null;
  const errEl = error ? (
    <span id={errId} className="error-text">
      <span className="visually-hidden">{t('common.errorPrefix')}</span>
      {serverText(error)}
    </span>
  ) : null;

  return (
    <Controller
      name={def.id}
      control={control}
      rules={{ validate: (v: unknown, values: FieldValues) => validateField(def, v) ?? remote?.errorFor(def.id, values) ?? true }}
      render={({ field }) => {
        const blur = () => {
          field.onBlur();
          remote?.onBlurred(def.id);
        };
        const common = {
          id,
          name: field.name,
          'aria-invalid': error ? (true as const) : undefined,
          'aria-describedby': describedBy,
          'aria-required': required || undefined,
          readOnly: def.readOnly,
        };
        if (type === 'checkbox') {
          return (
            <div className={`field${error ? ' field--error' : ''}`}>
              {errEl}
              <label className="check" htmlFor={id}>
                <input
                  {...common}
                  type="checkbox"
                  checked={field.value === true}
                  onChange={(e) => field.onChange(e.target.checked)}
                  onBlur={blur}
                  ref={field.ref}
                />
                <span>{labelEl}</span>
              </label>
              {hintEl}
            </div>
          );
        }
        if (type === 'radio') {
          const options = def.rules?.validOptions?.options ?? [];
          return (
            <fieldset className={`field form-section${error ? ' field--error' : ''}`} aria-describedby={describedBy}>
              <legend className="label" style={{ fontSize: 'inherit', color: 'inherit', fontWeight: 600 }}>
                {labelEl}
              </legend>
              {hintEl}
              {errEl}
              <div className="radios">
                {options.map((o, n) => (
                  <label key={o.value} htmlFor={`${id}-${n}`}>
                    <input
                      type="radio"
                      id={`${id}-${n}`}
                      name={field.name}
                      value={o.value}
                      checked={field.value === o.value}
                      onChange={() => field.onChange(o.value)}
                      onBlur={blur}
                      ref={n === 0 ? field.ref : undefined}
                      aria-invalid={error ? true : undefined}
                    />
                    {serverText(o.label)}
                  </label>
                ))}
              </div>
            </fieldset>
          );
        }
        let input;
        if (type === 'select' || type === 'state') {
          const options = type === 'state' ? US_STATES.map(([value, lbl]) => ({ value, label: lbl })) : (def.rules?.validOptions?.options ?? []);
          input = (
            <select
              {...common}
              className="select"
              value={(field.value as string) ?? ''}
              onChange={(e) => field.onChange(e.target.value)}
              onBlur={blur}
              ref={field.ref}
              autoComplete={autoComplete}
            >
              <option value="">{required ? t('application.field.selectOne') : t('application.field.none')}</option>
              {options.map((o) => (
                <option key={o.value} value={o.value}>
                  {type === 'state' ? o.label : serverText(o.label)}
                </option>
              ))}
            </select>
          );
        } else if (isDate(type)) {
          input = (
            <MaskedInput
              {...common}
              className="input input--short"
              inputMode="numeric"
              value={(field.value as string) ?? ''}
              shape={maskUsDate}
              onValueChange={field.onChange}
              onBlur={(e) => {
                const shaped = normalizeUsDate(e.target.value);
                if (shaped !== e.target.value) field.onChange(shaped);
                blur();
              }}
              inputRef={field.ref}
              autoComplete={autoComplete}
              spellCheck={false}
              maxLength={10}
            />
          );
        } else if (mask && type !== 'currency') {
          input = (
            <div className="input-row">
              <MaskedInput
                {...common}
                className={`input${type === 'ssn' && !show ? ' masked' : ''}${type === 'zipCode' ? ' input--short' : ''}`}
                value={(field.value as string) ?? ''}
                shape={mask}
                onValueChange={field.onChange}
                onBlur={blur}
                inputRef={field.ref}
                inputMode={type === 'phone' || type === 'dynamicPhone' ? 'tel' : 'numeric'}
                type={type === 'phone' || type === 'dynamicPhone' ? 'tel' : 'text'}
                autoComplete={autoComplete}
                spellCheck={false}
              />
              {type === 'ssn' ? (
                <button type="button" className="btn btn--secondary" aria-pressed={show} aria-controls={id} onClick={() => setShow((s) => !s)}>
                  {show ? t('application.field.hide') : t('application.field.show')}
                  <span className="visually-hidden">{t('application.field.ssn')}</span>
                </button>
              ) : null}
            </div>
          );
        } else if (mask && type === 'currency') {
          input = (
            <div className="prefix-wrap">
              <span aria-hidden="true">$</span>
              <MaskedInput
                {...common}
                className="input"
                value={(field.value as string) ?? ''}
                shape={mask}
                onValueChange={field.onChange}
                onBlur={blur}
                inputRef={field.ref}
                inputMode="decimal"
                autoComplete="off"
              />
            </div>
          );
        } else {
          input = (
            <input
              {...common}
              className={`input${whole ? ' input--short' : ''}`}
              type={type === 'email' ? 'email' : 'text'}
              inputMode={(def.inputMode as 'numeric' | undefined) ?? (whole ? 'numeric' : type === 'email' ? 'email' : undefined)}
              value={(field.value as string) ?? ''}
              onChange={(e) => field.onChange(e.target.value)}
              onBlur={(e) => {
                const trimmed = e.target.value.trim();
                if (trimmed !== e.target.value) field.onChange(trimmed);
                blur();
              }}
              ref={field.ref}
              autoComplete={autoComplete}
              spellCheck={type === 'email' ? false : undefined}
              maxLength={def.rules?.maxLength?.max ?? undefined}
            />
          );
        }
        return (
          <div className={`field${error ? ' field--error' : ''}`}>
            <label htmlFor={id}>{labelEl}</label>
            {hintEl}
            {errEl}
            {input}
          </div>
        );
      }}
    />
  );
});
