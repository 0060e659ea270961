import { useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/Button';
import { Failure } from '@/components/Failure';
import { TextField } from '@/components/TextField';
import { createInvite, type OfficeInvite } from './api/applications';
import { OfficeError } from './api/http';
import { endedBy401, words } from './auth';
import { FIELD_ORDER, inviteBody, inviteErrors, SERVER_FIELDS, type InviteErrors, type InviteField, type InviteForm as Form } from './invite';
import { EXPERIENCE_WORDS } from './words';

/** NOT_SENT_HINT is said where no text or email service is set up: the server only logs the messages. */
export const NOT_SENT_HINT = 'Texts and emails are not set up for your office yet: hand over the link with the QR code.';

/** Reach says whether the office's texts and emails reach patients (the session's office). */
export interface Reach {
  texts: boolean;
  emails: boolean;
}

const LANGUAGE_WORDS = { en: 'English', es: 'Spanish (Español)' } as const;

const empty = (language: 'en' | 'es'): Form => ({
  amount: '',
  firstName: '',
  lastName: '',
  mobilePhone: '',
  email: '',
  textConsent: false,
  language,
  experienceType: 'in_store',
});

/** serverErrors puts the server's field errors on the form's fields; null when it answered none this form has. */
function serverErrors(e: unknown): InviteErrors | null {
  if (!(e instanceof OfficeError) || e.code !== 'validation_error') return null;
  const out: InviteErrors = {};
  for (const fe of e.fieldErrors) {
    const f = SERVER_FIELDS[fe.field];
    if (f && !out[f]) out[f] = fe.message;
  }
  return Object.keys(out).length ? out : null;
}

/**
 * InviteForm makes an invitation: the treatment amount (required), the
 * patient's name, where to send the link (a number only with the patient's
 * agreement to be texted, which the desk ticks), the patient's language and
 * where the patient will apply. Errors go on their fields, and the first field in error takes the
 * focus; anything else is said under the form.
 */
export function InviteForm({
  csrf,
  reach,
  language,
  initial,
  recordPatientId,
  onCreated,
}: {
  csrf: string;
  reach: Reach;
  /** The office's language, the invitation's unless the desk chooses another. */
  language: 'en' | 'es';
  /** What the office's records prefill, when the desk found the patient there. */
  initial?: Partial<Form>;
  /** The patient's id in the office's records: sent with the invitation. */
  recordPatientId?: string;
  onCreated: (invite: OfficeInvite) => void;
}) {
  const [form, setForm] = useState<Form>(() => ({ ...empty(language), ...initial }));
  const [errors, setErrors] = useState<InviteErrors>({});
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const refs = useRef<Partial<Record<InviteField, HTMLInputElement | null>>>({});
  const hasPhone = form.mobilePhone.trim() !== '';
  const field = (name: InviteField) => (el: HTMLInputElement | null) => {
    refs.current[name] = el;
  };
  const change = (name: InviteField) => (v: string) => setForm((f) => ({ ...f, [name]: v }));

  function show(e: InviteErrors) {
    setErrors(e);
    const first = FIELD_ORDER.find((f) => e[f]);
    if (first) refs.current[first]?.focus();
  }

  async function submit(ev: FormEvent) {
    ev.preventDefault();
    setFailure('');
    const e = inviteErrors(form);
    show(e);
    if (Object.keys(e).length) return;
    setBusy(true);
    try {
      onCreated(await createInvite(recordPatientId ? { ...inviteBody(form), recordPatientId } : inviteBody(form), csrf));
    } catch (err) {
      setBusy(false);
      if (endedBy401(err)) return;
      const fe = serverErrors(err);
      if (fe) return show(fe);
      setFailure(words(err)); // the server's own words, a refused CSRF token's included
    }
  }

  return (
    <form noValidate onSubmit={submit} className="office-invite-form">
      <TextField
        id="invite-amount"
        label="Treatment amount"
        hint="In dollars, for example 3,200"
        decimal
        value={form.amount}
        error={errors.amount}
        inputRef={field('amount')}
        onChange={change('amount')}
      />
      <p className="hint office-hint">The name, phone and email are optional.</p>
      <div className="grid-2">
        <TextField
          id="invite-first-name"
          label="First name"
          value={form.firstName}
          error={errors.firstName}
          inputRef={field('firstName')}
          onChange={change('firstName')}
        />
        <TextField
          id="invite-last-name"
          label="Last name"
          value={form.lastName}
          error={errors.lastName}
          inputRef={field('lastName')}
          onChange={change('lastName')}
        />
        <TextField
          id="invite-phone"
          label="Mobile phone (optional)"
          type="tel"
          hint={reach.texts ? 'We text the link to this number.' : NOT_SENT_HINT}
          value={form.mobilePhone}
          error={errors.mobilePhone}
          inputRef={field('mobilePhone')}
          onChange={change('mobilePhone')}
        />
        <TextField
          id="invite-email"
          label="Email (optional)"
          type="email"
          hint={
            !reach.emails
              ? NOT_SENT_HINT
              : hasPhone && reach.texts
                ? 'We email the link only if the text does not arrive.'
                : 'We email the link to this address.'
          }
          value={form.email}
          error={errors.email}
          inputRef={field('email')}
          onChange={change('email')}
        />
      </div>
      {hasPhone ? (
        <div className={`field${errors.textConsent ? ' field--error' : ''}`}>
          {errors.textConsent ? (
            <span id="invite-consent-error" className="error-text">
              <span className="visually-hidden">Error: </span>
              {errors.textConsent}
            </span>
          ) : null}
          <label className="check" htmlFor="invite-consent">
            <input
              id="invite-consent"
              type="checkbox"
              checked={form.textConsent}
              ref={field('textConsent')}
              aria-describedby={errors.textConsent ? 'invite-consent-error' : undefined}
              aria-invalid={errors.textConsent ? true : undefined}
              onChange={(e) => setForm((f) => ({ ...f, textConsent: e.target.checked }))}
            />
            <span>The patient gave us this number and agreed to be texted this link.</span>
          </label>
        </div>
      ) : null}
      <Choice
        name="language"
        legend="The patient’s language"
        hint="The text, the email and the patient’s form are in it."
        words={LANGUAGE_WORDS}
        value={form.language}
        error={errors.language}
        inputRef={field('language')}
        onChange={(v) => setForm((f) => ({ ...f, language: v }))}
      />
      <Choice
        name="experienceType"
        legend="Where will the patient apply?"
        words={EXPERIENCE_WORDS}
        value={form.experienceType}
        error={errors.experienceType}
        inputRef={field('experienceType')}
        onChange={(v) => setForm((f) => ({ ...f, experienceType: v }))}
      />
      <Failure message={failure} />
      <div className="actions">
        <Button type="submit" disabled={busy} aria-disabled={busy}>
          {busy ? 'Creating the invitation…' : 'Create invitation'}
        </Button>
      </div>
    </form>
  );
}

/** Choice is one of the form's radio groups: its legend, an optional hint, its error, and a radio for each of words' keys. */
function Choice<V extends string>({
  name,
  legend,
  hint,
  words,
  value,
  error,
  inputRef,
  onChange,
}: {
  name: string;
  legend: string;
  hint?: string;
  words: Record<V, string>;
  value: V;
  error?: string;
  /** The first radio's ref, to take the focus when the group is in error. */
  inputRef: (el: HTMLInputElement | null) => void;
  onChange: (v: V) => void;
}) {
  const errorId = `invite-${name}-error`;
  return (
    <fieldset className={`field form-section${error ? ' field--error' : ''}`} aria-describedby={error ? errorId : undefined}>
      <legend className="label office-legend">{legend}</legend>
      {hint ? <p className="hint office-hint">{hint}</p> : null}
      {error ? (
        <span id={errorId} className="error-text">
          <span className="visually-hidden">Error: </span>
          {error}
        </span>
      ) : null}
      <div className="radios">
        {(Object.keys(words) as V[]).map((v, i) => (
          <label key={v}>
            <input type="radio" name={name} value={v} checked={value === v} ref={i === 0 ? inputRef : undefined} onChange={() => onChange(v)} />
            {words[v]}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
