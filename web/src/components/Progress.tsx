import { useFlow } from '@/stores/flow';
import { useT } from '@/lib/i18n';

/** Progress shows the waiting message of a submission over the page (worded by whoever set it, in the language of that moment). */
export function Progress() {
  const message = useFlow((s) => s.progress);
  const detail = useFlow((s) => s.progressDetail);
  const t = useT();
  if (!message) return null;
  return (
    <div className="progress" role="status" aria-live="polite">
      <div className="progress__box">
        <div className="spinner" aria-hidden="true" />
        <p className="lead" style={{ margin: '0 auto 8px' }}>
          {message}
        </p>
        {detail ? <p style={{ margin: '0 auto 8px' }}>{detail}</p> : null}
        <p className="muted" style={{ margin: '0 auto' }}>
          {t('common.progress.patience')}
        </p>
      </div>
    </div>
  );
}
