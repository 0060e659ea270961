import { Modal } from '@/components/Modal';
import { HelpContent } from './HelpContent';

/** HelpDrawer: the FAQ drawer of the top bar and the floating help button. */
export default function HelpDrawer({ onClose }: { onClose: () => void }) {
  return (
    <Modal variant="drawer" title="Help" onClose={onClose} closeLabel="Close">
      <HelpContent headingLevel={3} onOpenDocument={onClose} />
    </Modal>
  );
}
