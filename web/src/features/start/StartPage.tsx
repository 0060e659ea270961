import { useEffect, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Page } from '@/components/Page';
import { Loading } from '@/components/Skeleton';
import { isHandled } from '@/lib/api/client';
import { startFlow } from './api/start';
import { useWording } from '@/lib/wording';
import { useT } from '@/lib/i18n';

/** StartPage: /start without a key — how to begin. */
export function StartPage() {
  const words = useWording();
  const t = useT();
  return (
    <div className="card">
      <Page title={t('start.start.title')}>
        <p>{t('start.start.body', { practice: words.practice })}</p>
      </Page>
    </div>
  );
}

/** StartFlowPage: /start/entity-keys/{entityKey} and /start/tokens/{token}. */
export function StartFlowPage() {
  const { staff } = useWording();
  const t = useT();
  const { entityKey, token } = useParams();
  const navigate = useNavigate();
  const started = useRef(false);
  // What went wrong, worded at render (in the language shown then).
  const [problem, setProblem] = useState<'incomplete' | 'failed' | null>(null);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (entityKey !== undefined && !/^\d{16}$/.test(entityKey)) {
      setProblem('incomplete');
      return;
    }
    const run = entityKey !== undefined ? startFlow('entity-keys', entityKey) : startFlow('tokens', token ?? '');
    run.then(
      (to) => void navigate(to, { replace: true }),
      (e: unknown) => {
        if (isHandled(e)) return;
        setProblem('failed');
      },
    );
  }, [entityKey, token, navigate]);

  if (problem) {
    return (
      <div className="card">
        <Page title={t('start.start.problemTitle')}>
          <p>{t(`start.start.${problem}`, { staff })}</p>
        </Page>
      </div>
    );
  }
  // The application screen's heading shows at once, so it does not jump when the form arrives.
  return (
    <>
      <Page title={t('start.start.formTitle')} lead={t('start.start.preparing')} />
      <Loading label={t('start.start.starting')} height={900} />
    </>
  );
}
