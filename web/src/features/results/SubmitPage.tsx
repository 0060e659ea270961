import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { Loading } from '@/components/Skeleton';
import { StillWorking } from '@/components/StillWorking';
import { acceptOffer, once, providerRoute, submitDecision } from '@/flow/commands';
import { useFlowNavigate } from '@/flow/navigation';
import { ApiError, isStillWorking } from '@/lib/api/client';
import { reportClientError } from '@/lib/clientLog';
import { flow, providerName } from '@/stores/flow';

async function run(op: string): Promise<string> {
  const s = flow.get();
  const k = s.providerKey!;
  switch (op) {
    case 'prequalifySubmit':
      return submitDecision(s.applyMode === 'full' ? 'prequalify' : s.applyMode);
    case 'fullApplicationSubmit':
      return submitDecision('full');
    case 'acceptOfferSubmit':
      if (!s.selectedPaymentPlan) return providerRoute(k, 'paymentPlans');
      return acceptOffer(s.selectedPaymentPlan);
    default:
      // Signing and completing need the signature: they run from the terms screen.
      return providerRoute(k, 'terms');
  }
}

/**
 * SubmitPage is every transient submit route (spec §2.1): it runs the
 * submission once, shows its waiting message, then replaces itself with the
 * result. When the lender is still working on it after every retry, it says
 * so calmly and offers to try again (the same call, answered by the server
 * with the first answer).
 */
export function SubmitPage() {
  const { pathname } = useLocation();
  const navigate = useFlowNavigate();
  const op = pathname.split('/').pop() ?? '';
  const [attempt, setAttempt] = useState(0);
  const [waiting, setWaiting] = useState<ApiError | null>(null);
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
        if (e instanceof ApiError && e.redirectedTo) return;
        console.warn('submit failed', e instanceof Error ? e.message : e);
        reportClientError('submit.failed');
        navigate('/error?code=internal', { replace: true });
      },
    );
    return () => {
      live = false;
    };
  }, [op, navigate, attempt]);
  if (waiting) {
    return (
      <StillWorking
        lender={providerName(waiting.providerKey ?? flow.get().providerKey)}
        offline={waiting.code === 'network'}
        onRetry={() => {
          setWaiting(null);
          setAttempt((n) => n + 1);
        }}
      />
    );
  }
  return <Loading label="Working on it…" height={400} />;
}
