import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { Loading } from '@/components/Skeleton';
import type { Decision } from '@/lib/api/types';
import { lenderRoute } from '@/lib/paths';
import { useWording } from '@/lib/wording';
import { useT } from '@/lib/i18n';
import { flow, useLenderName } from '@/stores/flow';
import { checkStatus, recordDecision } from './api/pending';

const lenderApplicationOf = (providerKey: string): string | undefined => {
  const r = flow.get().responses[providerKey];
  return (r?.apply ?? r?.preAuth)?.lenderApplicationId;
};

/**
 * BreakoutPage: /breakout/{lender}/{lenderApplicationId}, where a lender's
 * own page sends the patient back. On the device that started the
 * application, the lender is asked where the application stands and the
 * patient goes on from its answer; anywhere else there is nothing to
 * resume, and the page says where to go instead.
 */
export function BreakoutPage() {
  const words = useWording();
  const t = useT();
  const { lender = '', lenderApplicationId = '' } = useParams();
  const name = useLenderName(lender);
  const navigate = useNavigate();
  const ours = flow.get().session !== null && lenderApplicationOf(lender) === lenderApplicationId;
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (!ours) return;
    let live = true;
    checkStatus(lender).then(
      (pa) => {
        if (!live) return;
        const d = pa.decision as Decision | undefined;
        flow.set({ providerKey: lender });
        void navigate(lenderRoute(lender, d ? recordDecision(lender, d) : 'pending'), { replace: true });
      },
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [ours, lender, attempt, navigate]);

  if (!ours) {
    return (
      <div className="card">
        <Page title={t('results.breakout.title')}>
          <p>{t('results.breakout.body', { name, staff: words.staff })}</p>
          <p>
            <Link to="/idle">{t('common.actions.backToStart')}</Link>
          </p>
        </Page>
      </div>
    );
  }
  if (failed) {
    return (
      <div className="card">
        <Page title={t('results.breakout.failedTitle', { name })}>
          <p>{t('results.breakout.safe')}</p>
          <div className="actions">
            <Button
              onClick={() => {
                setFailed(false);
                setAttempt((n) => n + 1);
              }}
            >
              {t('common.actions.tryAgain')}
            </Button>
          </div>
        </Page>
      </div>
    );
  }
  return <Loading label={t('results.breakout.checking', { name })} />;
}
