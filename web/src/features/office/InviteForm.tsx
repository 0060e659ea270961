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

const EMPTY: Form = { amount: '', firstName: '', lastName: '', mobilePhone: '', email: '', experienceType: 'in_store' };

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
 * patient's name, where to send the link, and where the patient will
 * apply. Errors go on their fields, and the first field in error takes the
 * focus; anything else is said under the form.
 */
export function InviteForm({ csrf, delivered, onCreated }: { csrf: string; delivered: boolean; onCreated: (invite: OfficeInvite) => void }) {
  const [form, setForm] = useState<Form>(EMPTY);
  const [errors, setErrors] = useState<InviteErrors>({});
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const refs = useRef<Partial<Record<InviteField, HTMLInputElement | null>>>({});
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
      onCreated(await createInvite(inviteBody(form), csrf));
    } catch (err) {
      setBusy(false);
      if (endedBy401(err)) return;
      const fe = serverErrors(err);
      if (fe) return show(fe);
      setFailure(words(err)); // the server's own words, a refused CSRF token's included
    }
  }

  const expError = errors.experienceType;
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
          hint={delivered ? 'We text the link to this number.' : NOT_SENT_HINT}
          value={form.mobilePhone}
          error={errors.mobilePhone}
          inputRef={field('mobilePhone')}
          onChange={change('mobilePhone')}
        />
        <TextField
          id="invite-email"
          label="Email (optional)"
          type="email"
          hint={delivered ? 'We email the link to this address.' : NOT_SENT_HINT}
          value={form.email}
          error={errors.email}
          inputRef={field('email')}
          onChange={change('email')}
        />
      </div>
      <fieldset
        className={`field form-section${expError ? ' field--error' : ''}`}
        aria-describedby={expError ? 'invite-experience-error' : undefined}
      >
        <legend className="label office-legend">Where will the patient apply?</legend>
        {expError ? (
          <span id="invite-experience-error" className="error-text">
            <span className="visually-hidden">Error: </span>
            {expError}
          </span>
        ) : null}
        <div className="radios">
          {(['in_store', 'at_home'] as const).map((v, i) => (
            <label key={v}>
              <input
                type="radio"
                name="experienceType"
                value={v}
                checked={form.experienceType === v}
                ref={i === 0 ? field('experienceType') : undefined}
                onChange={() => setForm((f) => ({ ...f, experienceType: v }))}
              />
              {EXPERIENCE_WORDS[v]}
            </label>
          ))}
        </div>
      </fieldset>
      <Failure message={failure} />
      <div className="actions">
        <Button type="submit" disabled={busy} aria-disabled={busy}>
          {busy ? 'Creating the invitation…' : 'Create invitation'}
        </Button>
      </div>
    </form>
  );
}
