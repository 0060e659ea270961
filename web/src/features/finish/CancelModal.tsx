import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/Button';
import { Modal } from '@/components/Modal';
import { finishFlow } from '@/flow/finish';

/** CancelModal: the cancel-flow modal; yes clears personal data and exits (docs/behaviour.md, "Finishing"). */
export default function CancelModal({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const cancel = async () => {
    setBusy(true);
    const to = await finishFlow('cancel');
    onClose();
    void navigate(to, { replace: true });
  };
  return (
    <Modal
      title="Cancel this application?"
      onClose={onClose}
      description={<p>Everything you have entered will be cleared from this device. An application already sent to a lender is not withdrawn.</p>}
    >
      <div className="actions">
        <Button onClick={onClose} autoFocus>
          No, keep going
        </Button>
        <Button variant="secondary" onClick={cancel} disabled={busy}>
          Yes, cancel
        </Button>
      </div>
    </Modal>
  );
}
