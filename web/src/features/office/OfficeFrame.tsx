import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { Failure } from '@/components/Failure';
import { signOut, type OfficeSession } from './api/session';
import { signedOut, useOfficeAuth, words } from './auth';
import { SignInForm } from './SignInForm';
import './office.css';

/**
 * SignedInOnly shows its screen to a signed-in staff member, under the bar
 * that says who and where with Sign out; otherwise the sign-in form, with
 * the reason when a call found the session over.
 */
export function SignedInOnly({ children }: { children: (session: OfficeSession) => ReactNode }) {
  const auth = useOfficeAuth();
  if (auth.state === 'checking') return <Page title="Office sign-in" lead="Checking whether you are signed in…" />;
  if (auth.state === 'out') return <SignInForm key={auth.notice} initialFailure={auth.notice} />;
  return (
    <div className="office">
      <OfficeBar session={auth.session} />
      {children(auth.session)}
    </div>
  );
}

function OfficeBar({ session }: { session: OfficeSession }) {
  const navigate = useNavigate();
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  async function out() {
    setBusy(true);
    setFailure('');
    try {
      await signOut(session.csrfToken);
      signedOut();
      void navigate('/office');
    } catch (e) {
      setFailure(words(e)); // the server's own words, a refused CSRF token's included
      setBusy(false);
    }
  }
  return (
    <div className="office-bar">
      <p>
        Signed in as <strong>{session.staff.email}</strong> at {session.office.name}.
      </p>
      <Button variant="secondary" onClick={() => void out()} disabled={busy} aria-disabled={busy}>
        Sign out
      </Button>
      <Failure message={failure} />
    </div>
  );
}
