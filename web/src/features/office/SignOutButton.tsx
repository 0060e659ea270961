import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/Button';
import { Failure } from '@/components/Failure';
import { signOut } from './api/session';
import { signedOut, words } from './auth';

/** SignOutButton ends the session, from the office's bar and from the second step of signing in. */
export function SignOutButton({ csrf }: { csrf: string }) {
  const navigate = useNavigate();
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  async function out() {
    setBusy(true);
    setFailure('');
    try {
      await signOut(csrf);
      signedOut();
      void navigate('/office');
    } catch (e) {
      setFailure(words(e)); // the server's own words, a refused CSRF token's included
      setBusy(false);
    }
  }
  return (
    <>
      <Button variant="secondary" onClick={() => void out()} disabled={busy} aria-disabled={busy}>
        Sign out
      </Button>
      <Failure message={failure} />
    </>
  );
}
