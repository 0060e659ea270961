import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { Loading } from '@/components/Skeleton';
import { acceptOffer, once, providerRoute, submitDecision } from '@/flow/commands';
import { useFlowNavigate } from '@/flow/navigation';
import { ApiError } from '@/lib/api/client';
import { flow } from '@/stores/flow';

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
 * result.
 */
export function SubmitPage() {
  const { pathname } = useLocation();
  const navigate = useFlowNavigate();
  const op = pathname.split('/').pop() ?? '';
  useEffect(() => {
    let live = true;
    once(`submit:${op}`, () => run(op)).then(
      (to) => live && navigate(to, { replace: true }),
      (e: unknown) => {
        if (!live) return;
        if (e instanceof ApiError && e.redirectedTo) return;
        console.warn('submit failed', e instanceof Error ? e.message : e);
        navigate('/error?code=internal', { replace: true });
      },
    );
    return () => {
      live = false;
    };
  }, [op, navigate]);
  return <Loading label="Working on it…" height={400} />;
}
