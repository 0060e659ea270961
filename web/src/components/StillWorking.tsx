import { Page } from './Page';
import { Button } from './Button';
import { ResultIcon } from './ResultIcon';
import { useT } from '@/lib/i18n';

/**
 * StillWorking is what a patient sees when a lender step (checking options,
 * accepting the offer, signing, completing) has not answered after about two
 * minutes of waiting and retrying: calm words, never an error page, and a
 * way to ask again. Asking again never sends anything twice; the server
 * answers a repeat with the first answer.
 */
export function StillWorking({ lender, offline, onRetry, busy = false }: { lender: string; offline: boolean; onRetry: () => void; busy?: boolean }) {
  const t = useT();
  return (
    <div className="card" data-testid="still-working">
      <ResultIcon kind="info" />
      <Page title={offline ? t('common.stillWorking.offlineTitle') : t('common.stillWorking.title', { lender })}>
        <p className="lead">{offline ? t('common.stillWorking.offlineLead') : t('common.stillWorking.lead', { lender })}</p>
        <p>{t('common.stillWorking.body')}</p>
        <div className="actions">
          <Button onClick={onRetry} disabled={busy}>
            {t('common.actions.tryAgain')}
          </Button>
        </div>
      </Page>
    </div>
  );
}
