import { useEffect, useMemo, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { finishFlow } from '@/flow/finish';
import { SessionTimer, timersAllowed } from '@/lib/timeout';
import { useFlow } from '@/stores/flow';
import { timerControl, ui } from '@/stores/ui';

/**
 * useSessionTimeout runs the inactivity timer (docs/behaviour.md, "Time-outs") while a session
 * exists, outside /finish and /idle. Clicks and key presses reset it.
 */
export function useSessionTimeout(): { yes: () => void; no: () => void } {
  const session = useFlow((s) => s.session);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const timerRef = useRef<SessionTimer | null>(null);
  const active = Boolean(session) && timersAllowed(pathname);

  const expire = useMemo(
    () => async () => {
      timerRef.current?.stop();
      ui.set({ timeoutOpen: false });
      const to = await finishFlow('timeout');
      void navigate(to, { replace: true });
    },
    [navigate],
  );

  useEffect(() => {
    if (!active || !session) return;
    const timer = new SessionTimer({
      timeoutMs: session.timeoutAfterMillis,
      countdownMs: session.warnCountdownMillis,
      onWarn: () => ui.set({ timeoutOpen: true }),
      onTick: (ms) => ui.set({ timeoutRemainingMs: ms }),
      onHide: () => ui.set({ timeoutOpen: false }),
      onExpire: () => void expire(),
    });
    timerRef.current = timer;
    timerControl.setMinimum = (ms) => timer.setMinimum(ms);
    timerControl.setTemporary = (ms) => timer.setTemporary(ms);
    timer.start();
    const onActivity = () => timer.activity();
    document.addEventListener('click', onActivity, true);
    document.addEventListener('keydown', onActivity, true);
    document.addEventListener('touchstart', onActivity, { capture: true, passive: true });
    return () => {
      document.removeEventListener('click', onActivity, true);
      document.removeEventListener('keydown', onActivity, true);
      document.removeEventListener('touchstart', onActivity, true);
      timer.stop();
      timerControl.setMinimum = () => undefined;
      timerControl.setTemporary = () => undefined;
      timerRef.current = null;
      ui.set({ timeoutOpen: false });
    };
  }, [active, session, expire]);

  // Leaving a path clears a temporary time-out (docs/behaviour.md, "Time-outs").
  useEffect(() => {
    timerRef.current?.setTemporary(null);
  }, [pathname]);

  return {
    yes: () => timerRef.current?.reset(),
    no: () => void expire(),
  };
}
