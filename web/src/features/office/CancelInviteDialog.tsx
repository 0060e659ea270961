import { useState } from 'react';
import { Button } from '@/components/Button';
import { Failure } from '@/components/Failure';
import { Modal } from '@/components/Modal';
import { cancelInvite } from './api/applications';
import { endedBy401, words } from './auth';

/**
 * CancelInviteDialog asks before cancelling an invitation (a tap on a
 * tablet is easily a mistake, and a canceled link cannot be brought back),
 * then cancels it. A link the patient already opened answers 409: the
 * server's words say so here.
 */
export function CancelInviteDialog({
  inviteId,
  name,
  csrf,
  onClose,
  onCanceled,
}: {
  inviteId: string;
  name: string;
  csrf: string;
  onClose: () => void;
  onCanceled: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState('');
  async function yes() {
    setBusy(true);
    setFailure('');
    try {
      await cancelInvite(inviteId, csrf);
      onCanceled();
    } catch (e) {
      if (endedBy401(e)) return;
      setFailure(words(e));
      setBusy(false);
    }
  }
  return (
    <Modal
      title={name ? `Cancel the invitation for ${name}?` : 'Cancel this invitation?'}
      onClose={onClose}
      description={<p>The link will stop working. You can make a new invitation at any time.</p>}
    >
      <Failure message={failure} />
      <div className="actions">
        <Button onClick={onClose} autoFocus>
          Keep the invitation
        </Button>
        <Button variant="secondary" onClick={() => void yes()} disabled={busy} aria-disabled={busy}>
          Yes, cancel it
        </Button>
      </div>
    </Modal>
  );
}
