import { Button } from '@/components/Button';
import { Modal } from '@/components/Modal';
import { useUi } from '@/stores/ui';
import { useT } from '@/lib/i18n';

/** TimeoutModal: "Are you still there?" with the countdown (docs/behaviour.md, "Time-outs"). */
export default function TimeoutModal({ onYes, onNo }: { onYes: () => void; onNo: () => void }) {
  const remaining = useUi((s) => s.timeoutRemainingMs);
  const seconds = Math.ceil(remaining / 1000);
  const t = useT();
  return (
    <Modal title={t('common.timeout.title')} onClose={onYes} description={<p>{t('common.timeout.privacy')}</p>}>
      <p className="countdown" aria-live="polite" aria-atomic="true">
        {seconds} <span className="countdown__unit">{t('common.timeout.secondsLeft', { count: seconds })}</span>
      </p>
      <div className="actions">
        <Button onClick={onYes} autoFocus>
          {t('common.timeout.yes')}
        </Button>
        <Button variant="secondary" onClick={onNo}>
          {t('common.timeout.no')}
        </Button>
      </div>
    </Modal>
  );
}
