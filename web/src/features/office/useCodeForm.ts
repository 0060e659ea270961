import { useRef, useState, type FormEvent } from 'react';
import { words } from './auth';

/**
 * useCodeForm is the state of a form with one code to type (the second
 * step of signing in, or the first code of a new authenticator app): the
 * code is checked by `check` (its words, or '' when fine) and sent by
 * `send`. A refused code shows the server's words and is cleared, with the
 * focus back on it: a wrong code answers 401, which here means the code,
 * not an ended session.
 */
export function useCodeForm(check: (code: string) => string, send: (code: string) => Promise<void>) {
  const [code, setCode] = useState('');
  const [error, setError] = useState('');
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const codeRef = useRef<HTMLInputElement>(null);

  async function submit(ev: FormEvent) {
    ev.preventDefault();
    setFailure('');
    const e = check(code);
    setError(e);
    if (e) return codeRef.current?.focus();
    setBusy(true);
    try {
      await send(code);
    } catch (err) {
      setCode('');
      setFailure(words(err));
      setBusy(false);
      codeRef.current?.focus();
    }
  }

  return { code, setCode, error, failure, busy, codeRef, submit };
}
