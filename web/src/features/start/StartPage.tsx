import { useEffect, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Page } from '@/components/Page';
import { Loading } from '@/components/Skeleton';
import { isHandled } from '@/lib/api/client';
import { startFlow } from './api/start';
import { useWording } from '@/lib/wording';

/** StartPage: /start without a key — how to begin. */
export function StartPage() {
  const words = useWording();
  return (
    <div className="card">
      <Page title="Let’s get started">
        <p>Please scan the QR code {words.practice} gives you with your phone’s camera, or open the link they sent you.</p>
      </Page>
    </div>
  );
}

/** StartFlowPage: /start/entity-keys/{entityKey} and /start/tokens/{token}. */
export function StartFlowPage() {
  const { staff } = useWording();
  const { entityKey, token } = useParams();
  const navigate = useNavigate();
  const started = useRef(false);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (entityKey !== undefined && !/^\d{16}$/.test(entityKey)) {
      setProblem(`This link is not complete. Please scan the QR code again or ask ${staff} for a new link.`);
      return;
    }
    const run = entityKey !== undefined ? startFlow('entity-keys', entityKey) : startFlow('tokens', token ?? '');
    run.then(
      (to) => void navigate(to, { replace: true }),
      (e: unknown) => {
        if (isHandled(e)) return;
        setProblem(`We could not start your application. Please ask ${staff} for help.`);
      },
    );
  }, [entityKey, token, navigate, staff]);

  if (problem) {
    return (
      <div className="card">
        <Page title="We couldn’t start your application">
          <p>{problem}</p>
        </Page>
      </div>
    );
  }
  // The application screen's heading shows at once, so it does not jump when the form arrives.
  return (
    <>
      <Page title="Tell us about yourself" lead="Getting your application ready…" />
      <Loading label="Starting your application…" height={900} />
    </>
  );
}
