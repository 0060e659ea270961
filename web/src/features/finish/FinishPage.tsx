import { Link, useParams } from 'react-router';
import { Page } from '@/components/Page';
import { ResultIcon } from '@/components/Icons';
import { useFlow } from '@/stores/flow';

const TEXT: Record<string, { title: string; body: string; atHome?: string }> = {
  completed: {
    title: 'Thank you',
    body: 'Your application is finished. Please hand this device back to the office.',
    atHome: 'Your application is finished. You can close this page now.',
  },
  cancel: {
    title: 'Application canceled',
    body: 'Your application was canceled and your details were cleared from this device. Please hand it back to the office.',
    atHome: 'Your application was canceled and your details were cleared from this device. You can close this page.',
  },
  pending: {
    title: 'Thank you',
    body: 'Your application is being reviewed. The lender will contact you. Please hand this device back to the office.',
    atHome: 'Your application is being reviewed. The lender will contact you. You can close this page.',
  },
  timeout: {
    title: 'Your session has ended',
    body: 'For your privacy, we closed the application because there was no activity. Please ask the office for a new QR code to start again.',
    atHome: 'For your privacy, we closed the application because there was no activity. Use your link again to start over.',
  },
};

/** FinishPage: /finish/{type} — completed (default), timeout, cancel, pending. */
export function FinishPage() {
  const { type = 'completed' } = useParams();
  const atHome = useFlow((s) => s.experienceType === 'at_home');
  const key = type === 'canceled' ? 'cancel' : type;
  const t = TEXT[key] ?? {
    title: 'Thank you',
    body: 'This application is closed. Please hand this device back to the office.',
  };
  return (
    <div className="card">
      <ResultIcon kind={key === 'completed' || key === 'pending' ? 'ok' : 'info'} />
      <Page title={t.title}>
        <p>{atHome && t.atHome ? t.atHome : t.body}</p>
        <p>
          <Link to="/idle">Back to the start screen</Link>
        </p>
      </Page>
    </div>
  );
}
