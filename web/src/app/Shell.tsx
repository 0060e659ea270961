import { lazy, Suspense, useLayoutEffect } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { ChairsideMark, CloseIcon, HelpIcon } from '@/components/Icons';
import { Loading } from '@/components/Skeleton';
import { ErrorBoundary } from '@/components/ErrorBoundary';
import { Progress } from '@/components/Progress';
import { useRouteHandle } from '@/flow/navigation';
import { applicantTitle, useFlow } from '@/stores/flow';
import { useShallow } from 'zustand/react/shallow';
import { ui, useUi } from '@/stores/ui';
import { Stepper, StepperOutline } from './Stepper';
import { useRefreshWarning } from './useRefreshWarning';
import { useAfterPaint } from './useAfterPaint';
import { wording } from '@/lib/wording';
import { DocLink } from '@/components/DocLink';
import { isLenderPath } from '@/lib/paths';
import { paintedWords } from '@/lib/api/early';
import { LanguageSwitch } from '@/components/LanguageSwitch';
import { useT, withJourneyMessages } from '@/lib/i18n';

// Drawers and modals load only when first opened: they stay out of the first route's JS.
// Each brings the journey's words with it (lib/i18n.ts, loadJourneyMessages).
const HelpDrawer = lazy(withJourneyMessages(() => import('@/features/help/HelpDrawer')));
const LearnHowDrawer = lazy(withJourneyMessages(() => import('@/features/offers/LearnHowDrawer')));
const CancelModal = lazy(withJourneyMessages(() => import('@/features/finish/CancelModal')));
// The time-out loads with the first session (below): the idle screen has none to time out.
const SessionTimeout = lazy(() => import('@/features/session-timeout/SessionTimeout'));

export function Shell() {
  const location = useLocation();
  const navigate = useNavigate();
  const handle = useRouteHandle();
  const session = useFlow((s) => s.session);
  const providerKey = useFlow((s) => s.providerKey);
  const brand = useFlow((s) => s.location?.brandName);
  const t = useT();
  const words = wording(brand);
  const title = useFlow(applicantTitle);
  // Only what the shell shows: the rest of the store (the time-out's countdown) changes without it.
  const { faqOpen, learnHow, cancelOpen } = useUi(useShallow((s) => ({ faqOpen: s.faqOpen, learnHow: s.learnHow, cancelOpen: s.cancelOpen })));
  useRefreshWarning(Boolean(session));
  // The time-out's code is fetched once the session's first screen past the start has painted: fetched with the
  // session, it would compete with that screen, a link's application form, for the network and the main thread.
  const timeoutWanted = useAfterPaint(Boolean(session) && !location.pathname.startsWith('/start/'));

  // Leaving a path hides the learn-how drawer (docs/behaviour.md, "Routes"); a new screen starts at the top.
  // A layout effect: it runs before the new screen's own effects, one of which may open the drawer again
  // (a lender that explains its plans unasked). The store is written only when a drawer is open: each write
  // re-renders the shell at once, inside the new screen's commit.
  useLayoutEffect(() => {
    if (useUi.getState().learnHow) ui.set({ learnHow: null });
    window.scrollTo(0, 0);
  }, [location.pathname]);

  const hideLogo = session?.properties?.state === 'IL';
  const lenderSession = Boolean(session && providerKey && isLenderPath(location.pathname));
  // A lender whose program asks for its mark on its pages (catalogue footerLogo) gets it in the footer.
  const lender = useFlow((s) => (s.providerKey ? s.lenders[s.providerKey] : undefined));
  const footerLogo = lenderSession ? lender?.footerLogo : undefined;

  const cancel = async () => {
    if (session?.showCancelModal === false) {
      // The finish loads when it is asked for, like the cancel modal it stands in for.
      const { finishFlow } = await import('@/flow/finish');
      navigate(await finishFlow('cancel'), { replace: true });
    } else ui.set({ cancelOpen: true });
  };

  return (
    <>
      <a className="skip-link" href="#main">
        {t('common.shell.skipToMain')}
      </a>
      <header className="topbar">
        {hideLogo ? (
          <span className="topbar__spacer" />
        ) : (
          <Link
            to={handle.staff ? '/office' : '/idle'}
            className="topbar__brand"
            aria-label={brand ? t('common.shell.brandHome', { brand }) : t('common.shell.home')}
            reloadDocument={false}
          >
            <ChairsideMark />
            <span>{brand || 'Chairside'}</span>
          </Link>
        )}
        <span className="topbar__title" aria-label={title ? t('common.shell.applicant', { title }) : undefined}>
          {title}
        </span>
        {handle.staff ? null : (
          <button type="button" className="icon-btn" onClick={() => ui.set({ faqOpen: true })} aria-haspopup="dialog">
            <HelpIcon />
            <span className="icon-btn__label">{t('common.shell.help')}</span>
          </button>
        )}
        {handle.staff ? null : <LanguageSwitch />}
        {lenderSession ? (
          <button type="button" className="icon-btn" onClick={cancel} aria-label={t('common.shell.cancel')} aria-haspopup="dialog">
            <CloseIcon />
          </button>
        ) : null}
      </header>
      {!handle.hideStepper && handle.step ? <Stepper handle={handle} /> : null}
      <main id="main" className="main" tabIndex={-1}>
        <ErrorBoundary>
          <Outlet />
        </ErrorBoundary>
      </main>
      <footer className="footer">
        {footerLogo ? (
          <p className="footer__lender">
            {t('common.shell.financingBy')} <img src={footerLogo} alt={lender?.name ?? ''} width={105} height={30} decoding="async" />
          </p>
        ) : null}
        {handle.staff ? null : (
          <p style={{ margin: '0 auto' }}>
            {t('common.shell.questions', { staff: words.staff })}{' '}
            <button type="button" className="btn btn--link" onClick={() => ui.set({ faqOpen: true })}>
              {t('common.shell.readAnswers')}
            </button>
          </p>
        )}
        {handle.staff ? null : (
          <p className="footer__links">
            <DocLink to="/accessibility">{t('common.shell.accessibility')}</DocLink>
          </p>
        )}
      </footer>
      {handle.hideHelpButton || handle.staff ? null : (
        <button type="button" className="fab" onClick={() => ui.set({ faqOpen: true })} aria-haspopup="dialog">
          <HelpIcon /> {t('common.shell.help')}
        </button>
      )}
      <Progress />
      <ErrorBoundary fallback={null}>
        <Suspense fallback={null}>
          {faqOpen ? <HelpDrawer onClose={() => ui.set({ faqOpen: false })} /> : null}
          {learnHow ? <LearnHowDrawer plan={learnHow} onClose={() => ui.set({ learnHow: null })} /> : null}
          {cancelOpen ? <CancelModal onClose={() => ui.set({ cancelOpen: false })} /> : null}
        </Suspense>
      </ErrorBoundary>
      {/* A boundary of its own: while its code loads, an open drawer stays as it is. */}
      {session && timeoutWanted ? (
        <ErrorBoundary fallback={null}>
          <Suspense fallback={null}>
            <SessionTimeout />
          </Suspense>
        </ErrorBoundary>
      ) : null}
    </>
  );
}

/**
 * ShellFallback is what a visit shows while its first screen is not ready yet, e.g. a
 * link's form while the start call is still on its way (app/routes.tsx, startLoader):
 * the top bar the page itself showed (index.html), and the space of what is coming. When
 * the page drew the form's heading and lead before the app (lib/firstWords.ts), they stay.
 */
export function ShellFallback() {
  const words = paintedWords();
  return (
    <>
      <header className="topbar">
        <span className="topbar__brand">
          <ChairsideMark />
          <span>Chairside</span>
        </span>
      </header>
      {words ? <StepperOutline /> : null}
      <main id="main" className="main" aria-busy="true" lang={words?.lang}>
        {words ? (
          <>
            <h1>{words.title}</h1>
            <p className="lead">{words.lead}</p>
          </>
        ) : null}
        <Loading label={words?.loading} />
      </main>
    </>
  );
}
