import { Button } from '@/components/Button';
import { Modal } from '@/components/Modal';
import { useUi } from '@/stores/ui';

/** TimeoutModal: "Are you still there?" with the countdown (docs/behaviour.md, "Time-outs"). */
export default function TimeoutModal({ onYes, onNo }: { onYes: () => void; onNo: () => void }) {
  const remaining = useUi((s) => s.timeoutRemainingMs);
  const seconds = Math.ceil(remaining / 1000);
  return (
    <Modal
      title="Are you still there?"
      onClose={onYes}
      description={<p>For your privacy, this application will close soon if there is no activity.</p>}
    >
      <p className="countdown" aria-live="polite" aria-atomic="true">
        {seconds} <span className="countdown__unit">seconds left</span>
      </p>
      <div className="actions">
        <Button onClick={onYes} autoFocus>
          Yes, I’m still here
        </Button>
        <Button variant="secondary" onClick={onNo}>
          No, close it
        </Button>
      </div>
    </Modal>
  );
}
