import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { ResultIcon } from '@/components/ResultIcon';
import { startAgain } from '@/flow/finish';
import { t as translate, useT } from '@/lib/i18n';
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
 * hand back and nobody beside the patient to ask. They are in the app's
 * language: call finishMessages at render.
 */
export type FinishKind = 'completed' | 'cancel' | 'pending' | 'timeout' | 'other';

const KINDS: FinishKind[] = ['completed', 'cancel', 'pending', 'timeout', 'other'];

export const finishMessages = ({ staff }: Wording): Record<FinishKind, Message> =>
  Object.fromEntries(
    KINDS.map((kind) => [
      kind,
      {
        title: translate(`finish.messages.${kind}.title`),
        inStore: translate(`finish.messages.${kind}.inStore`, { staff }),
        atHome: translate(`finish.messages.${kind}.atHome`),
      },
    ]),
  ) as Record<FinishKind, Message>;

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
  const t = useT();
  const words = useWording();
  const kind = finishKind(type);
  const message = finishMessages(words)[kind];
  const restart = async () => {
    setBusy(true);
    try {
      navigate(await startAgain(), { replace: true });
    } catch {
      setRefused(true);
      setBusy(false);
    }
  };
  const newLink = t(atHome ? 'finish.newLink' : 'finish.newQrCode', { staff: words.staff });
  return (
    <div className="card">
      <ResultIcon kind={kind === 'completed' || kind === 'pending' ? 'ok' : 'info'} />
      <Page title={message.title}>
        <p>{atHome ? message.atHome : message.inStore}</p>
        {kind === 'timeout' || kind === 'cancel' ? (
          canRestart && !refused ? (
            <div className="actions">
              <Button onClick={restart} disabled={busy}>
                {t('finish.restart')}
              </Button>
            </div>
          ) : (
            <p role={refused ? 'status' : undefined}>{newLink}</p>
          )
        ) : null}
        <p>
          <Link to="/idle">{t('finish.backToStart')}</Link>
        </p>
      </Page>
    </div>
  );
}
