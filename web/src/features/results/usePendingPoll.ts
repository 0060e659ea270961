import { useCallback, useEffect, useRef, useState } from 'react';
import type { Decision } from '@/lib/api/types';
import { normalizeCode } from '@/lib/decision';
import { checkStatus } from './api/pending';

/**
 * The waits between status checks while a pending screen is open
 * (docs/behaviour.md, "Pending, patches and stipulations"): 5 seconds,
 * growing, about four minutes in all. "Check again" starts them over.
 */
export const POLL_DELAYS_MS = [5_000, 10_000, 20_000, 30_000, 45_000, 60_000, 60_000] as const;

export interface PendingPoll {
  /** When the lender last answered a check; null before the first answer. */
  lastChecked: Date | null;
  /** A check is on its way. */
  checking: boolean;
  /** The last check got no answer. */
  failed: boolean;
  /** Checks now (unless one is on its way) and starts the waits over. */
  checkNow: () => void;
}

/**
 * usePendingPoll checks a pending application's status with the backoff of
 * POLL_DELAYS_MS while the screen is open and the tab visible (a hidden tab
 * checks nothing; shown again, it picks up where it was), never two checks
 * at once, and calls onDecided once with a decision that is no longer
 * pending.
 */
export function usePendingPoll(providerKey: string, onDecided: (d: Decision) => void, onAskedStillPending?: () => Promise<void>): PendingPoll {
  const [lastChecked, setLastChecked] = useState<Date | null>(null);
  const [checking, setChecking] = useState(false);
  const [failed, setFailed] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const inFlight = useRef(false);
  const attempt = useRef(0);
  const done = useRef(false);
  const decided = useRef(onDecided);
  decided.current = onDecided;
  const stillPending = useRef(onAskedStillPending);
  stillPending.current = onAskedStillPending;
  const run = useRef<(asked: boolean) => void>(() => undefined);

  const stopTimer = () => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
  };
  const schedule = useCallback(() => {
    stopTimer();
    if (done.current || inFlight.current || document.hidden) return;
    const wait = POLL_DELAYS_MS[attempt.current];
    if (wait === undefined) return;
    timer.current = setTimeout(() => run.current(false), wait);
  }, []);

  // asked: the patient tapped "Check again"; then what the lender waits for is refreshed too.
  run.current = (asked) => {
    stopTimer();
    if (done.current || inFlight.current) return;
    inFlight.current = true;
    setChecking(true);
    checkStatus(providerKey)
      .then(async (pa) => {
        if (done.current) return;
        setLastChecked(new Date());
        setFailed(false);
        const d = pa.decision as Decision | undefined;
        if (d && normalizeCode(d.responseCode) !== 'pending') {
          done.current = true;
          decided.current(d);
        } else if (asked && stillPending.current) {
          await stillPending.current();
        }
      })
      .catch(() => {
        if (!done.current) setFailed(true);
      })
      .finally(() => {
        inFlight.current = false;
        attempt.current += 1;
        if (!done.current) {
          setChecking(false);
          schedule();
        }
      });
  };

  useEffect(() => {
    done.current = false;
    attempt.current = 0;
    schedule();
    const onVisibility = () => (document.hidden ? stopTimer() : schedule());
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      done.current = true;
      stopTimer();
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [providerKey, schedule]);

  const checkNow = useCallback(() => {
    if (inFlight.current) return;
    attempt.current = 0;
    run.current(true);
  }, []);

  return { lastChecked, checking, failed, checkNow };
}
