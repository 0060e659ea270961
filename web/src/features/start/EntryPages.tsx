import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { Page } from '@/components/Page';
import { Loading } from '@/components/Skeleton';
import { api, ApiError } from '@/lib/api/client';
import { lenderRoute } from '@/lib/paths';
import { useWording } from '@/lib/wording';
import { useT } from '@/lib/i18n';
import { flow } from '@/stores/flow';
import { startFlow } from './api/start';

/*
 * Ways into the journey from outside it (docs/behaviour.md, "Routes"): a
 * lender's redirect back to a screen of ours, and a tester starting a named
 * sandbox scenario from an address. The breakout back from a lender's own
 * page is in features/results/BreakoutPage.tsx.
 */

/**
 * safeAppPath answers an address inside this app, or null: a lender's
 * redirect may only lead to one of our own screens, never to another site
 * ("//host", a scheme, a backslash trick).
 */
export function safeAppPath(raw: string): string | null {
  let path: string;
  try {
    path = decodeURIComponent(raw);
  } catch {
    return null;
  }
  if (!path.startsWith('/') || path.startsWith('//') || path.includes('\\') || [...path].some((c) => c.charCodeAt(0) < 0x20)) return null;
  const url = new URL(path, window.location.origin);
  if (url.origin !== window.location.origin || url.pathname.startsWith('/api/')) return null;
  return url.pathname + url.search;
}

/** RedirectPage: /redirect/{redirect} continues a lender's redirect to the screen of ours it names. */
export function RedirectPage() {
  const words = useWording();
  const t = useT();
  const { redirect = '' } = useParams();
  const navigate = useNavigate();
  const to = safeAppPath(redirect);
  useEffect(() => {
    if (to) void navigate(to, { replace: true });
  }, [to, navigate]);
  if (to) return <Loading label={t('start.redirect.loading')} />;
  return (
    <div className="card">
      <Page title={t('start.redirect.title')}>
        <p>{t('start.redirect.body', { staff: words.staff })}</p>
        <p>
          <Link to="/idle">{t('common.actions.backToStart')}</Link>
        </p>
      </Page>
    </div>
  );
}

/** Between a test case's name and its description: punctuation, no words. */
const DASH = ' — ';

interface TestCaseList {
  testCases: { id: string; name: string; description: string }[];
  entityKey?: string;
}

type TestCaseState =
  { kind: 'starting' } | { kind: 'refused' } | { kind: 'unknown'; list: TestCaseList['testCases'] } | { kind: 'noOffice' } | { kind: 'failed' };

/** runTestCase starts (or keeps) a session, chooses the test case for it and answers the first lender's start. */
async function runTestCase(id: string, entityKey: string | null): Promise<TestCaseState | string> {
  let list: TestCaseList;
  try {
    list = await api.get<TestCaseList>('/test-cases', { noErrorHandling: true });
  } catch (e) {
    return e instanceof ApiError && e.code === 'forbidden' ? { kind: 'refused' } : { kind: 'failed' };
  }
  if (!list.testCases.some((t) => t.id === id)) return { kind: 'unknown', list: list.testCases };
  let start: string;
  const s = flow.get();
  if (s.session && !entityKey && s.providerKey) start = lenderRoute(s.providerKey, `modes/${s.applyMode}/start`);
  else {
    const key = entityKey ?? list.entityKey;
    if (!key) return { kind: 'noOffice' };
    start = await startFlow('entity-keys', key);
  }
  await api.post(`/test-cases/apply/${encodeURIComponent(id)}`, {}, { noErrorHandling: true });
  return start;
}

/**
 * TestCasePage: /test-cases/{id}[?entityKey=…] starts a named sandbox
 * scenario for testers: in this session, or in a new one at the office the
 * address names (or the demo office). The server refuses test cases in
 * env prod, and so does this page.
 */
export function TestCasePage() {
  const { id = '' } = useParams();
  const [q] = useSearchParams();
  const navigate = useNavigate();
  const [state, setState] = useState<TestCaseState>({ kind: 'starting' });
  const t = useT();
  const ran = useRef(false);
  useEffect(() => {
    if (ran.current) return;
    ran.current = true;
    runTestCase(id, q.get('entityKey')).then(
      (r) => (typeof r === 'string' ? void navigate(r, { replace: true }) : setState(r)),
      () => setState({ kind: 'failed' }),
    );
  }, [id, q, navigate]);

  switch (state.kind) {
    case 'starting':
      return <Loading label={t('start.testCase.starting', { id })} />;
    case 'refused':
      return <TestCaseNotice title={t('start.testCase.refusedTitle')}>{t('start.testCase.refused')}</TestCaseNotice>;
    case 'unknown':
      // The test cases' names and descriptions are the server's, for testers.
      return (
        <TestCaseNotice title={t('start.testCase.unknownTitle')}>
          {t('start.testCase.unknown', { id })}
          <ul>
            {state.list.map((c) => (
              <li key={c.id}>
                <a href={`/test-cases/${encodeURIComponent(c.id)}`}>{c.name}</a>
                {DASH}
                {c.description}
              </li>
            ))}
          </ul>
        </TestCaseNotice>
      );
    case 'noOffice':
      return <TestCaseNotice title={t('start.testCase.noOfficeTitle')}>{t('start.testCase.noOffice')}</TestCaseNotice>;
    default:
      return <TestCaseNotice title={t('start.testCase.failedTitle')}>{t('start.testCase.failed')}</TestCaseNotice>;
  }
}

function TestCaseNotice({ title, children }: { title: string; children: React.ReactNode }) {
  const t = useT();
  return (
    <div className="card">
      <Page title={title}>
        <div>{children}</div>
        <p>
          <Link to="/idle">{t('common.actions.backToStart')}</Link>
        </p>
      </Page>
    </div>
  );
}
