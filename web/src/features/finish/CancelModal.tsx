import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/Button';
import { Modal } from '@/components/Modal';
import { finishFlow } from '@/flow/finish';
import { useT } from '@/lib/i18n';

/** CancelModal: the cancel-flow modal; yes clears personal data and exits (docs/behaviour.md, "Finishing"). */
export default function CancelModal({ onClose }: { onClose: () => void }) {
  const t = useT();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const cancel = async () => {
    setBusy(true);
    const to = await finishFlow('cancel');
    onClose();
    void navigate(to, { replace: true });
  };
  return (
    <Modal title={t('finish.cancel.title')} onClose={onClose} description={<p>{t('finish.cancel.body')}</p>}>
      <div className="actions">
        <Button onClick={onClose} autoFocus>
          {t('finish.cancel.keepGoing')}
        </Button>
        <Button variant="secondary" onClick={cancel} disabled={busy}>
          {t('finish.cancel.yes')}
        </Button>
      </div>
    </Modal>
  );
}
