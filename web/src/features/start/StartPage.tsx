import { useLoaderData } from 'react-router';
import { Page } from '@/components/Page';
import { Loading } from '@/components/Skeleton';
import { useWording } from '@/lib/wording';
import { isHandled } from '@/lib/api/client';
import { startFlow } from './api/start';
import { useT } from '@/lib/i18n';

/** What the start screen says when a link's session could not start. */
export type StartProblem = 'incomplete' | 'failed';

/**
 * startFromLink starts the session /start/entity-keys/{entityKey} or /start/tokens/{token}
 * names, and answers where it begins; or what went wrong: a key that cannot be one, or a
 * start that failed; or null when the client's own handler has already taken the patient
 * on from the failure (lib/api/client.ts). Its route's loader calls it (app/routes.tsx).
 */
export async function startFromLink(entityKey: string | undefined, token: string | undefined): Promise<{ to: string } | StartProblem | null> {
  if (entityKey !== undefined && !/^\d{16}$/.test(entityKey)) return 'incomplete';
  try {
    return { to: await (entityKey !== undefined ? startFlow('entity-keys', entityKey) : startFlow('tokens', token ?? '')) };
  } catch (e) {
    return isHandled(e) ? null : 'failed';
  }
}

/** StartPage: /start without a key — how to begin. */
export function StartPage() {
  const words = useWording();
  const t = useT();
  return (
    <div className="card">
      <Page title={t('start.start.title')}>
        <p>{t('start.start.body', { practice: words.practice })}</p>
      </Page>
    </div>
  );
}

/**
 * StartFlowPage: /start/entity-keys/{entityKey} and /start/tokens/{token}. Its route's loader
 * starts the session and leads on to the form (app/routes.tsx, startLoader); this screen shows
 * only when it could not, or while the client's handler takes the patient elsewhere.
 */
export function StartFlowPage() {
  const { staff } = useWording();
  const t = useT();
  const problem = useLoaderData<StartProblem | null>();
  if (problem) {
    return (
      <div className="card">
        <Page title={t('start.start.problemTitle')}>
          <p>{t(`start.start.${problem}`, { staff })}</p>
        </Page>
      </div>
    );
  }
  // The application screen's heading, so it does not jump when the form arrives.
  return (
    <>
      <Page title={t('start.start.formTitle')} lead={t('start.start.preparing')} />
      <Loading label={t('start.start.starting')} height={900} />
    </>
  );
}
