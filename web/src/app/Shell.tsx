import { lazy, Suspense, useLayoutEffect } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { ChairsideMark, CloseIcon, HelpIcon } from '@/components/Icons';
import { ErrorBoundary } from '@/components/ErrorBoundary';
import { Progress } from '@/components/Progress';
import { useRouteHandle } from '@/flow/navigation';
import { finishFlow } from '@/flow/finish';
import { applicantTitle, useFlow } from '@/stores/flow';
import { ui, useUi } from '@/stores/ui';
import { useSessionTimeout } from '@/features/session-timeout/useSessionTimeout';
import { Stepper } from './Stepper';
import { useRefreshWarning } from './useRefreshWarning';
import { wording } from '@/lib/wording';
import { DocLink } from '@/components/DocLink';
import { LanguageSwitch } from '@/components/LanguageSwitch';
import { loadJourneyMessages, useT } from '@/lib/i18n';

// Drawers and modals load only when first opened: they stay out of the first route's JS.
// Each brings the journey's words with it (lib/i18n.ts, loadJourneyMessages).
const withWords =
  <T,>(load: () => Promise<T>) =>
  () =>
    Promise.all([load(), loadJourneyMessages()]).then(([m]) => m);
const HelpDrawer = lazy(withWords(() => import('@/features/help/HelpDrawer')));
const LearnHowDrawer = lazy(withWords(() => import('@/features/offers/LearnHowDrawer')));
const CancelModal = lazy(withWords(() => import('@/features/finish/CancelModal')));
const TimeoutModal = lazy(withWords(() => import('@/features/session-timeout/TimeoutModal')));

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
  const { faqOpen, learnHow, cancelOpen, timeoutOpen } = useUi();
  const timer = useSessionTimeout();
  useRefreshWarning(Boolean(session));

  // Leaving a path hides the learn-how drawer (docs/behaviour.md, "Routes"); a new screen starts at the top.
  // A layout effect: it runs before the new screen's own effects, one of which may open the drawer again
  // (a lender that explains its plans unasked).
  useLayoutEffect(() => {
    ui.set({ learnHow: null });
    window.scrollTo(0, 0);
  }, [location.pathname]);

  const hideLogo = session?.properties?.state === 'IL';
  const providerSession = Boolean(session && providerKey && location.pathname.startsWith('/providers/'));
  // A lender whose program asks for its mark on its pages (catalogue footerLogo) gets it in the footer.
  const lender = useFlow((s) => (s.providerKey ? s.providers[s.providerKey] : undefined));
  const footerLogo = providerSession ? lender?.footerLogo : undefined;

  const cancel = async () => {
    if (session?.showCancelModal === false) {
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
        {providerSession ? (
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
          {timeoutOpen ? <TimeoutModal onYes={timer.yes} onNo={timer.no} /> : null}
        </Suspense>
      </ErrorBoundary>
    </>
  );
}
