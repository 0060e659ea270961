import { useRef, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { Failure } from '@/components/Failure';
import { TextField } from '@/components/TextField';
import { OfficeError, setPassword } from './api/session';
import { words } from './auth';
import { SignedInOnly } from './OfficeFrame';
import { DayScreen } from './DayScreen';

/*
 * The office side's screens (docs/behaviour.md, "The office side"): sign-in
 * at /office, then the office's day (DayScreen); and the one-time setup
 * link's password form at /office/setup/:token. Passwords live in their
 * screen's state only and are cleared once sent. An invitation is
 * InvitePage, an application's details ApplicationPage.
 */

/** OfficePage is /office: the sign-in form, or the office's day. */
export function OfficePage() {
  return <SignedInOnly>{(session) => <DayScreen session={session} />}</SignedInOnly>;
}

/** OfficeSetupPage is /office/setup/:token: choosing a password with a one-time link. */
export function OfficeSetupPage() {
  const { token = '' } = useParams();
  const [password, setPw] = useState('');
  const [error, setError] = useState('');
  const [failure, setFailure] = useState('');
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const pwRef = useRef<HTMLInputElement>(null);

  async function submit(ev: FormEvent) {
    ev.preventDefault();
    setFailure('');
    const e = password.length < 12 ? 'Use at least 12 characters.' : '';
    setError(e);
    if (e) return pwRef.current?.focus();
    setBusy(true);
    try {
      await setPassword(token, password);
      setDone(true);
    } catch (err) {
      if (err instanceof OfficeError && err.code === 'validation_error') setError(err.message);
      else setFailure(words(err));
      pwRef.current?.focus();
    } finally {
      setPw('');
      setBusy(false);
    }
  }

  if (done) {
    return (
      <Page title="Your password is set">
        <p>You can sign in now with your email and the password you chose.</p>
        <div className="actions">
          <Link className="btn" to="/office">
            Go to sign-in
          </Link>
        </div>
      </Page>
    );
  }
  return (
    <Page title="Choose your password" lead="This link works once. Choose a password of at least 12 characters; it cannot be your email.">
      <form noValidate onSubmit={submit}>
        <TextField
          id="new-password"
          label="New password"
          type="password"
          autoComplete="new-password"
          hint="At least 12 characters"
          value={password}
          error={error}
          inputRef={pwRef}
          onChange={setPw}
        />
        <Failure message={failure} />
        <div className="actions">
          <Button type="submit" disabled={busy} aria-disabled={busy}>
            Set password
          </Button>
        </div>
      </form>
    </Page>
  );
}
