import { Modal } from '@/components/Modal';
import { useT } from '@/lib/i18n';
import { HelpContent } from './HelpContent';

/** HelpDrawer: the FAQ drawer of the top bar and the floating help button. */
export default function HelpDrawer({ onClose }: { onClose: () => void }) {
  const t = useT();
  return (
    <Modal variant="drawer" title={t('help.title')} onClose={onClose} closeLabel={t('help.close')}>
      <HelpContent headingLevel={3} onOpenDocument={onClose} />
    </Modal>
  );
}
