import { useRef, useState, type FormEvent } from 'react';
import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { Failure } from '@/components/Failure';
import { TextField } from '@/components/TextField';
import { signInWithPasskey } from './api/passkey';
import { signIn } from './api/session';
import { signedIn, words } from './auth';
import { PasskeyButton } from './PasskeyButton';

/**
 * SignInForm is the office's sign-in (docs/behaviour.md, "The office side"),
 * shown by every office screen while nobody is signed in. The password
 * lives in this form's state only and is cleared after a refusal.
 */
export function SignInForm({ initialFailure }: { initialFailure: string }) {
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
      const session = await signIn(email.trim(), password);
      setPw('');
      signedIn(session);
    } catch (err) {
      setPw('');
      setFailure(words(err));
      setBusy(false);
      pwRef.current?.focus();
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
      <PasskeyButton label="Sign in with a passkey" run={signInWithPasskey} onDone={signedIn} />
    </Page>
  );
}
