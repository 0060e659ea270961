import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { ResultIcon } from '@/components/Icons';
import { startAgain } from '@/flow/finish';
import { useWording, type Wording } from '@/lib/wording';
import { useFlow } from '@/stores/flow';

interface Message {
  title: string;
  /** In the office, on its device. */
  inStore: string;
  /** At home, on the patient's own device. */
  atHome: string;
}

/**
 * The finish messages (docs/behaviour.md, "Finishing"), each in the
 * office's wording and the at-home wording: at home there is no device to
 * hand back and nobody beside the patient to ask.
 */
export type FinishKind = 'completed' | 'cancel' | 'pending' | 'timeout' | 'other';

export const finishMessages = ({ staff }: Wording): Record<FinishKind, Message> => ({
  completed: {
    title: 'Thank you',
    inStore: `Your application is finished. Please hand this device back to ${staff}.`,
    atHome: 'Your application is finished. You can close this page now.',
  },
  cancel: {
    title: 'Application canceled',
    inStore: `Your application was canceled and your details were cleared from this device. Please hand it back to ${staff}.`,
    atHome: 'Your application was canceled and your details were cleared from this device. You can close this page.',
  },
  pending: {
    title: 'Thank you',
    inStore: `The lender is still reviewing your application and will contact you with its decision. Please hand this device back to ${staff}.`,
    atHome: 'The lender is still reviewing your application and will contact you with its decision. You can close this page.',
  },
  timeout: {
    title: 'Your session has ended',
    inStore: `For your privacy, we closed the application because there was no activity, and cleared your details from this device. Please hand it back to ${staff}.`,
    atHome: 'For your privacy, we closed the application because there was no activity, and cleared your details from this device.',
  },
  other: {
    title: 'Thank you',
    inStore: `This application is closed. Please hand this device back to ${staff}.`,
    atHome: 'This application is closed. You can close this page.',
  },
});

const KINDS: FinishKind[] = ['completed', 'cancel', 'pending', 'timeout', 'other'];

/** The kind of finish a /finish/{type} address shows; "canceled" is another spelling of "cancel". */
export function finishKind(type: string): FinishKind {
  if (type === 'canceled') return 'cancel';
  return KINDS.includes(type as FinishKind) ? (type as FinishKind) : 'other';
}

/**
 * FinishPage: /finish/{type} — completed (default), timeout, cancel,
 * pending. The browser remembers the session that just finished, so
 * "Start a new application" begins again at the same office, in the same
 * experience, without a new QR code or link while that is recent; after
 * that the patient is told how to get a new one.
 */
export function FinishPage() {
  const { type = 'completed' } = useParams();
  const atHome = useFlow((s) => s.experienceType === 'at_home');
  const canRestart = useFlow((s) => Boolean(s.previousSessionId) && !s.session);
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState(false);
  const words = useWording();
  const kind = finishKind(type);
  const t = finishMessages(words)[kind];
  const restart = async () => {
    setBusy(true);
    try {
      navigate(await startAgain(), { replace: true });
    } catch {
      setRefused(true);
      setBusy(false);
    }
  };
  const newLink = `To apply again, please ask ${words.staff} for a new ${atHome ? 'link' : 'QR code'}.`;
  return (
    <div className="card">
      <ResultIcon kind={kind === 'completed' || kind === 'pending' ? 'ok' : 'info'} />
      <Page title={t.title}>
        <p>{atHome ? t.atHome : t.inStore}</p>
        {kind === 'timeout' || kind === 'cancel' ? (
          canRestart && !refused ? (
            <div className="actions">
              <Button onClick={restart} disabled={busy}>
                Start a new application
              </Button>
            </div>
          ) : (
            <p role={refused ? 'status' : undefined}>{newLink}</p>
          )
        ) : null}
        <p>
          <Link to="/idle">Back to the start screen</Link>
        </p>
      </Page>
    </div>
  );
}
