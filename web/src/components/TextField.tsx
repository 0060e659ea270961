import { serverText } from '@/lib/serverText';
import type { ReactNode } from 'react';
import { useT } from '@/lib/i18n';

export interface TextFieldProps {
  id: string;
  label: string;
  value: string;
  error?: string;
  hint?: string;
  /** numeric brings up the number pad. */
  numeric?: boolean;
  /** decimal brings up the number pad with a decimal point (amounts in dollars). */
  decimal?: boolean;
  type?: string;
  /** Off unless given: a shared tablet should not offer to remember what a patient typed. */
  autoComplete?: string;
  /** prefix is shown before the input, such as $ before an amount in dollars. */
  prefix?: string;
  maxLength?: number;
  inputRef?: React.Ref<HTMLInputElement>;
  onChange: (v: string) => void;
  /** onBlur gets what is typed when the field is left (to show it back tidied). */
  onBlur?: (v: string) => void;
}

/**
 * TextField is a labelled input of a screen's own small form (the payment
 * method, the office's sign-in): its hint and its error are tied to it for
 * screen readers, and the error is marked as one for those who cannot see
 * the colour.
 */
export function TextField(props: TextFieldProps): ReactNode {
  const t = useT();
  const errId = `${props.id}-error`;
  const hintId = `${props.id}-hint`;
  const describedBy = [props.hint ? hintId : '', props.error ? errId : ''].filter(Boolean).join(' ') || undefined;
  const input = (
    <input
      id={props.id}
      ref={props.inputRef}
      className="input"
      type={props.type}
      value={props.value}
      inputMode={props.decimal ? 'decimal' : props.numeric ? 'numeric' : undefined}
      autoComplete={props.autoComplete ?? 'off'}
      maxLength={props.maxLength}
      aria-invalid={props.error ? true : undefined}
      aria-describedby={describedBy}
      onChange={(e) => props.onChange(e.target.value)}
      onBlur={props.onBlur ? (e) => props.onBlur!(e.target.value) : undefined}
    />
  );
  return (
    <div className={`field${props.error ? ' field--error' : ''}`}>
      <label className="label" htmlFor={props.id}>
        {props.label}
      </label>
      {props.hint ? (
        <span id={hintId} className="hint">
          {props.hint}
        </span>
      ) : null}
      {props.prefix ? (
        <div className="prefix-wrap">
          <span aria-hidden="true">{props.prefix}</span>
          {input}
        </div>
      ) : (
        input
      )}
      {props.error ? (
        <span id={errId} className="error-text">
          <span className="visually-hidden">{t('common.errorPrefix')}</span>
          {serverText(props.error)}
        </span>
      ) : null}
    </div>
  );
}
