import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { Loading } from '@/components/Skeleton';
import { StillWorking } from '@/components/StillWorking';
import { useFlowNavigate } from '@/flow/navigation';
import { ApiError, isHandled, isStillWorking } from '@/lib/api/client';
import { reportClientError } from '@/lib/clientLog';
import { once } from '@/lib/once';
import { flow, useFlow, useLenderName } from '@/stores/flow';
import { useT } from '@/lib/i18n';

/**
 * SubmitPage is every transient submit route (docs/behaviour.md, "Routes"):
 * it runs the route's operation (`run`, given the last part of the path)
 * once, shows its waiting message, then replaces itself with the result.
 * When the lender is still working on it after every retry, it says so
 * calmly and offers to try again (the same call, answered by the server
 * with the first answer).
 */
export function SubmitPage({ run }: { run: (op: string) => Promise<string> }) {
  const { pathname } = useLocation();
  const navigate = useFlowNavigate();
  const t = useT();
  const op = pathname.split('/').pop() ?? '';
  const [attempt, setAttempt] = useState(0);
  const [waiting, setWaiting] = useState<ApiError | null>(null);
  const lender = useLenderName(waiting ? (waiting.providerKey ?? flow.get().providerKey) : null);
  // The waiting words of the call in progress name the lender asked now.
  const progress = useFlow((s) => s.progress);
  useEffect(() => {
    let live = true;
    once(`submit:${op}`, () => run(op)).then(
      (to) => live && navigate(to, { replace: true }),
      (e: unknown) => {
        if (!live) return;
        if (isStillWorking(e)) {
          setWaiting(e);
          return;
        }
        if (isHandled(e)) return;
        console.warn('submit failed', e instanceof Error ? e.message : e);
        reportClientError('submit.failed');
        navigate('/error?code=internal', { replace: true });
      },
    );
    return () => {
      live = false;
    };
  }, [op, run, navigate, attempt]);
  if (waiting) {
    return (
      <StillWorking
        lender={lender}
        offline={waiting.code === 'network'}
        onRetry={() => {
          setWaiting(null);
          setAttempt((n) => n + 1);
        }}
      />
    );
  }
  return <Loading label={progress ?? t('results.working')} height={400} />;
}
