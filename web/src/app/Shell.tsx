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

// Drawers and modals load only when first opened: they stay out of the first route's JS.
const HelpDrawer = lazy(() => import('@/features/help/HelpDrawer'));
const LearnHowDrawer = lazy(() => import('@/features/offers/LearnHowDrawer'));
const CancelModal = lazy(() => import('@/features/finish/CancelModal'));
const TimeoutModal = lazy(() => import('@/features/session-timeout/TimeoutModal'));

export function Shell() {
  const location = useLocation();
  const navigate = useNavigate();
  const handle = useRouteHandle();
  const session = useFlow((s) => s.session);
  const providerKey = useFlow((s) => s.providerKey);
  const brand = useFlow((s) => s.location?.brandName);
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
        Skip to main content
      </a>
      <header className="topbar">
        {hideLogo ? (
          <span className="topbar__spacer" />
        ) : (
          <Link
            to={handle.staff ? '/office' : '/idle'}
            className="topbar__brand"
            aria-label={brand ? `${brand} – Chairside home` : 'Chairside home'}
            reloadDocument={false}
          >
            <ChairsideMark />
            <span>{brand || 'Chairside'}</span>
          </Link>
        )}
        <span className="topbar__title" aria-label={title ? `Applicant ${title}` : undefined}>
          {title}
        </span>
        {handle.staff ? null : (
          <button type="button" className="icon-btn" onClick={() => ui.set({ faqOpen: true })} aria-haspopup="dialog">
            <HelpIcon />
            <span>Help</span>
          </button>
        )}
        {providerSession ? (
          <button type="button" className="icon-btn" onClick={cancel} aria-label="Cancel application" aria-haspopup="dialog">
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
            Financing offered by <img src={footerLogo} alt={lender?.name ?? ''} width={105} height={30} decoding="async" />
          </p>
        ) : null}
        {handle.staff ? null : (
          <p style={{ margin: '0 auto' }}>
            Questions? Ask {words.staff}, or{' '}
            <button type="button" className="btn btn--link" onClick={() => ui.set({ faqOpen: true })}>
              read the answers to common questions
            </button>
          </p>
        )}
        {handle.staff ? null : (
          <p className="footer__links">
            <DocLink to="/accessibility">Accessibility</DocLink>
          </p>
        )}
      </footer>
      {handle.hideHelpButton || handle.staff ? null : (
        <button type="button" className="fab" onClick={() => ui.set({ faqOpen: true })} aria-haspopup="dialog">
          <HelpIcon /> Help
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
