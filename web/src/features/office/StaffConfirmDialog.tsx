import { useState } from 'react';
import { Button } from '@/components/Button';
import { Failure } from '@/components/Failure';
import { Modal } from '@/components/Modal';
import { disableStaff, resetSecondFactor, type OfficeMember } from './api/staff';
import { endedBy401, words } from './auth';

const ASK = {
  disable: {
    title: (email: string) => `Disable ${email}?`,
    text: 'Their sessions end at once, on every device, and their account can no longer sign in.',
    yes: 'Yes, disable',
    call: disableStaff,
  },
  reset: {
    title: (email: string) => `Reset two-step sign-in for ${email}?`,
    text: 'Their authenticator app and recovery codes stop working and their sessions end at once. At their next sign-in they set up the app again.',
    yes: 'Yes, reset',
    call: resetSecondFactor,
  },
} as const;

/**
 * StaffConfirmDialog asks before disabling a colleague or resetting their
 * two-step sign-in (either ends their sessions at once), then does it.
 * "Keep" has the focus, so a stray Enter changes nothing.
 */
export function StaffConfirmDialog({
  action,
  member,
  csrf,
  onClose,
  onDone,
}: {
  action: keyof typeof ASK;
  member: OfficeMember;
  csrf: string;
  onClose: () => void;
  onDone: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState('');
  const ask = ASK[action];
  async function yes() {
    setBusy(true);
    setFailure('');
    try {
      await ask.call(member.id, csrf);
      onDone();
    } catch (e) {
      if (endedBy401(e)) return;
      setFailure(words(e));
      setBusy(false);
    }
  }
  return (
    <Modal title={ask.title(member.email)} onClose={onClose} description={<p>{ask.text}</p>}>
      <Failure message={failure} />
      <div className="actions">
        <Button onClick={onClose} autoFocus>
          Keep
        </Button>
        <Button variant="secondary" onClick={() => void yes()} disabled={busy} aria-disabled={busy}>
          {ask.yes}
        </Button>
      </div>
    </Modal>
  );
}
