import { useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/Button';
import { Failure } from '@/components/Failure';
import { TextField } from '@/components/TextField';
import { OfficeError } from './api/http';
import { inviteStaff, type OfficeRole, type OfficeStaffInvite } from './api/staff';
import { endedBy401, words } from './auth';
import { ROLE_WORDS } from './staffWords';

type Errors = { email?: string; role?: string };

/**
 * StaffInviteForm makes a colleague's account and its one-time setup link.
 * Only a group administrator may make another group administrator; the
 * server refuses it to anybody else too. Errors go on their fields, and
 * the email takes the focus; anything else (an email that has an account
 * already) is said under the form.
 */
export function StaffInviteForm({ csrf, myRole, onInvited }: { csrf: string; myRole: OfficeRole; onInvited: (i: OfficeStaffInvite) => void }) {
  const roles: OfficeRole[] = myRole === 'group_admin' ? ['front_desk', 'manager', 'group_admin'] : ['front_desk', 'manager'];
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<OfficeRole>('front_desk');
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const roleRef = useRef<HTMLSelectElement>(null);

  function show(e: Errors) {
    setErrors(e);
    if (e.email) emailRef.current?.focus();
    else if (e.role) roleRef.current?.focus();
  }

  async function submit(ev: FormEvent) {
    ev.preventDefault();
    setFailure('');
    const e: Errors = {};
    if (!email.trim()) e.email = 'Enter their email address.';
    else if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())) e.email = 'Enter an email address like name@example.com.';
    show(e);
    if (e.email) return;
    setBusy(true);
    try {
      const invite = await inviteStaff(email.trim(), role, csrf);
      setEmail('');
      setRole('front_desk');
      onInvited(invite);
    } catch (err) {
      if (endedBy401(err)) return;
      const fields = err instanceof OfficeError && err.code === 'validation_error' ? fieldErrors(err) : null;
      if (fields) show(fields);
      else {
        setFailure(words(err));
        emailRef.current?.focus();
      }
    }
    setBusy(false);
  }

  return (
    <form noValidate onSubmit={submit}>
      <TextField
        id="staff-email"
        label="Email"
        type="email"
        autoComplete="off"
        value={email}
        error={errors.email}
        inputRef={emailRef}
        onChange={setEmail}
      />
      <div className={`field${errors.role ? ' field--error' : ''}`}>
        <label className="label" htmlFor="staff-role">
          Role
        </label>
        <select
          id="staff-role"
          ref={roleRef}
          className="select"
          value={role}
          aria-invalid={errors.role ? true : undefined}
          aria-describedby={errors.role ? 'staff-role-error' : undefined}
          onChange={(e) => setRole(e.target.value as OfficeRole)}
        >
          {roles.map((r) => (
            <option key={r} value={r}>
              {ROLE_WORDS[r]}
            </option>
          ))}
        </select>
        {errors.role ? (
          <span id="staff-role-error" className="error-text">
            <span className="visually-hidden">Error: </span>
            {errors.role}
          </span>
        ) : null}
      </div>
      <Failure message={failure} />
      <div className="actions">
        <Button type="submit" disabled={busy} aria-disabled={busy}>
          Send invitation
        </Button>
      </div>
    </form>
  );
}

/** fieldErrors puts the server's field errors on this form's fields; null when it answered none of them. */
function fieldErrors(e: OfficeError): Errors | null {
  const out: Errors = {};
  for (const fe of e.fieldErrors) {
    if ((fe.field === 'email' || fe.field === 'role') && !out[fe.field]) out[fe.field] = fe.message;
  }
  return Object.keys(out).length ? out : null;
}
