import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { Failure } from '@/components/Failure';
import { currentSession, OfficeError, setPassword, signIn, signOut, type OfficeSession } from './api/session';
import { TextField } from '@/components/TextField';

/*
 * The office side's screens (docs/behaviour.md, "The office side"): sign-in
 * at /office, then who is signed in and where, with Sign out; and the
 * one-time setup link's password form at /office/setup/:token. Passwords
 * live in this screen's state only and are cleared once sent.
 */

function words(e: unknown): string {
  return e instanceof Error && e.message ? e.message : 'Something went wrong. Please try again.';
}

/** OfficePage is /office: the sign-in form, or who is signed in. */
export function OfficePage() {
  const [session, setSession] = useState<OfficeSession | null | undefined>(undefined);
  const [failure, setFailure] = useState('');
  useEffect(() => {
    let live = true;
    currentSession().then(
      (s) => live && setSession(s),
      (e: unknown) => {
        if (!live) return;
        setSession(null);
        setFailure(words(e));
      },
    );
    return () => {
      live = false;
    };
  }, []);
  if (session === undefined) return <Page title="Office sign-in" lead="Checking whether you are signed in…" />;
  if (session === null) return <SignInForm onSignedIn={setSession} initialFailure={failure} />;
  return <SignedIn session={session} onSignedOut={() => setSession(null)} />;
}

function SignInForm({ onSignedIn, initialFailure }: { onSignedIn: (s: OfficeSession) => void; initialFailure: string }) {
  const [email, setEmail] = useState('');
  const [password, setPw] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const [failure, setFailure] = useState(initialFailure);
  const [busy, setBusy] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const pwRef = useRef<HTMLInputElement>(null);

  async function submit(ev: FormEvent) {
    ev.preventDefault();
    const e: typeof errors = {};
    if (!email.trim()) e.email = 'Enter your email address.';
    if (!password) e.password = 'Enter your password.';
    setErrors(e);
    setFailure('');
    if (e.email) return emailRef.current?.focus();
    if (e.password) return pwRef.current?.focus();
    setBusy(true);
    try {
      onSignedIn(await signIn(email.trim(), password));
    } catch (err) {
      setPw('');
      setFailure(words(err));
      pwRef.current?.focus();
    } finally {
      setBusy(false);
    }
  }

  return (
    <Page title="Office sign-in" lead="Sign in with the email and password of your office account.">
      <form noValidate onSubmit={submit}>
        <TextField
          id="email"
          label="Email"
          type="email"
          autoComplete="username"
          value={email}
          error={errors.email}
          inputRef={emailRef}
          onChange={setEmail}
        />
        <TextField
          id="password"
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          error={errors.password}
          inputRef={pwRef}
          onChange={setPw}
        />
        <Failure message={failure} />
        <div className="actions">
          <Button type="submit" disabled={busy} aria-disabled={busy}>
            {busy ? 'Signing in…' : 'Sign in'}
          </Button>
        </div>
      </form>
    </Page>
  );
}

function SignedIn({ session, onSignedOut }: { session: OfficeSession; onSignedOut: () => void }) {
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  async function out() {
    setBusy(true);
    setFailure('');
    try {
      await signOut(session.csrfToken);
      onSignedOut();
    } catch (e) {
      setFailure(e instanceof OfficeError && e.code === 'csrf' ? 'We could not sign you out. Reload the page and try again.' : words(e));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Page title={session.office.name}>
      <p>
        Signed in as <strong>{session.staff.email}</strong> at {session.office.name}.
      </p>
      <p className="hint">The list of your office’s applications will appear here.</p>
      <Failure message={failure} />
      <div className="actions">
        <Button variant="secondary" onClick={() => void out()} disabled={busy} aria-disabled={busy}>
          Sign out
        </Button>
      </div>
    </Page>
  );
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
