import { lazy, Suspense } from 'react';
import { withFormMessages } from '@/lib/i18n';
import { useUi } from '@/stores/ui';
import { useSessionTimeout } from './useSessionTimeout';

// The question loads only when it is first asked.
const TimeoutModal = lazy(withFormMessages(() => import('./TimeoutModal')));

/**
 * SessionTimeout runs the inactivity timer and asks "are you still there?"
 * when it runs out (docs/behaviour.md, "Time-outs"). The shell loads it with
 * the first session, so a visit that never starts one (the idle screen)
 * carries none of its code.
 */
export default function SessionTimeout() {
  const timer = useSessionTimeout();
  const open = useUi((s) => s.timeoutOpen);
  return open ? (
    <Suspense fallback={null}>
      <TimeoutModal onYes={timer.yes} onNo={timer.no} />
    </Suspense>
  ) : null;
}
