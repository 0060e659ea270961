import { useRef, useState } from 'react';
import { OfficeError } from './api/http';
import { words } from './auth';

/**
 * newKey names one confirmed change: 128 random bits in hex. (Not
 * crypto.randomUUID, which a browser offers only on https or localhost; an
 * office tablet may reach a server on the practice's network over plain
 * http in a trial.)
 */
export function newKey(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

/**
 * useChange is a manager's change to a case in its two steps: review (what
 * the server says the change will do) and one confirmation, which sends a
 * key made at review however often it is pressed, so the change is made
 * once. A field error of the review goes to onFieldError; the rest is the
 * failure shown.
 */
export function useChange<P, R>(opts: {
  preview: () => Promise<P>;
  send: (key: string) => Promise<R>;
  onDone: () => void;
  onFieldError: (message: string) => void;
}) {
  const [plan, setPlan] = useState<P | null>(null);
  const [result, setResult] = useState<R | null>(null);
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const key = useRef('');

  async function review() {
    setFailure('');
    setBusy(true);
    try {
      setPlan(await opts.preview());
      key.current = newKey();
    } catch (err) {
      if (err instanceof OfficeError && err.fieldErrors.length) opts.onFieldError(err.fieldErrors[0]!.message);
      else setFailure(words(err));
    } finally {
      setBusy(false);
    }
  }

  async function confirm() {
    setBusy(true);
    setFailure('');
    try {
      setResult(await opts.send(key.current));
      setPlan(null);
      opts.onDone();
    } catch (err) {
      setFailure(words(err));
    } finally {
      setBusy(false);
    }
  }

  return { plan, setPlan, result, setResult, failure, setFailure, busy, review, confirm };
}
