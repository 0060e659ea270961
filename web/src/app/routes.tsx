import { redirect, type LoaderFunctionArgs, type PatchRoutesOnNavigationFunction, type RouteObject } from 'react-router';
import type { RouteHandle } from '@/flow/navigation';
import type { StartProblem } from '@/features/start/StartPage';
import { isLenderPath, LENDER_ROUTES, lenderRoute } from '@/lib/paths';
import { isDocName, isPdfName } from '@/lib/docLinks';
import { flow } from '@/stores/flow';
import { withFormMessages } from '@/lib/i18n';
import { page } from './lazyPage';
import { Shell, ShellFallback } from './Shell';
import { RootError } from './RootError';
import { IdlePage } from '@/features/start/IdlePage';

/*
 * THE route table (docs/behaviour.md, "Routes"). Every screen is lazy-loaded
 * except the idle screen, which is where a fresh visit lands; guards are
 * loaders. The lender's screens, under /providers/:providerKey, are in
 * lenderRoutes.tsx, which the router adds when it first needs them
 * (addLenderRoutes).
 */

const finishPage = page(() => import('@/features/finish/FinishPage'), 'FinishPage');
const errorPage = page(() => import('@/features/start/InfoPages'), 'ErrorPage');
const notFound = page(() => import('@/features/start/InfoPages'), 'NotFoundPage');
const version = page(() => import('@/features/start/InfoPages'), 'VersionPage');
const breakout = page(() => import('@/features/results/BreakoutPage'), 'BreakoutPage');
const redirectPage = page(() => import('@/features/start/EntryPages'), 'RedirectPage');
const testCase = page(() => import('@/features/start/EntryPages'), 'TestCasePage');
const startFlowPage = page(() => import('@/features/start/StartPage'), 'StartFlowPage', withFormMessages);
const startPage = page(() => import('@/features/start/StartPage'), 'StartPage', withFormMessages);
const accessibility = page(() => import('@/features/docs/DocumentPages'), 'AccessibilityPage');
const contextHelp = page(() => import('@/features/help/HelpPage'), 'HelpPage');
const office = page(() => import('@/features/office/OfficePages'), 'OfficePage');
const officeSetup = page(() => import('@/features/office/OfficePages'), 'OfficeSetupPage');
const officeInvite = page(() => import('@/features/office/InvitePage'), 'OfficeInvitePage');
const officeApplication = page(() => import('@/features/office/ApplicationPage'), 'OfficeApplicationPage');
const officeStaff = page(() => import('@/features/office/StaffPage'), 'OfficeStaffPage');
const officeAudit = page(() => import('@/features/office/AuditPage'), 'OfficeAuditPage');
const officeFunding = page(() => import('@/features/office/FundingPage'), 'OfficeFundingPage');
const officeRecords = page(() => import('@/features/office/RecordsPage'), 'OfficeRecordsPage');
const officeTwoStep = page(() => import('@/features/office/TwoStepPage'), 'OfficeTwoStepPage');
const documentPage = page(() => import('@/features/docs/DocumentPages'), 'DocumentPage');
const pdfPage = page(() => import('@/features/docs/DocumentPages'), 'PdfPage');

const pub: RouteHandle = { public: true, hideStepper: true };
/** The office's screens are public too, and are staff screens: no patients' help or footer words (Shell). */
const officePub: RouteHandle = { ...pub, staff: true };

/**
 * clearOnStart: going to a route under /start clears the stored state. A start
 * leads to a lender's screen, so the lender's routes (addLenderRoutes) start
 * loading beside it; a link's page has fetched them with the app already
 * (vite.config.ts, ENTRY_PAGES).
 */
function clearOnStart(): null {
  flow.reset();
  void import('./lenderRoutes').catch(() => undefined);
  return null;
}

/**
 * startLoader starts the session of a link or a QR code as its route loads, and leads
 * straight on to the first lender's form. On a link's page the start call left before
 * the app's code arrived (lib/api/early.ts), so its answer is mostly here already: the
 * form is then the first screen drawn, rather than the start screen drawn only to be
 * replaced at once (docs/performance.md, "The application screen"). While the answer
 * is still on its way, the shell's fallback shows (Shell.tsx, ShellFallback). The start
 * screen shows what went wrong instead (StartFlowPage).
 */
async function startLoader({ params }: LoaderFunctionArgs): Promise<Response | StartProblem | null> {
  clearOnStart();
  void import('@/features/application/ApplicationPage').catch(() => undefined);
  // The start screen's module, which a link's page has fetched with the app (vite.config.ts, ENTRY_PAGES).
  const { startFromLink } = await import('@/features/start/StartPage');
  const started = await startFromLink(params.entityKey, params.token);
  return typeof started === 'object' && started ? redirect(started.to) : started;
}

/** The start screens sit in the patient-info step, so the stepper does not pop in. */
const startHandle: RouteHandle = { public: true, step: 'patientInfo' };

function homeToLender(): Response {
  const s = flow.get();
  if (!s.session || !s.providerKey) return redirect('/idle');
  return redirect(lenderRoute(s.providerKey, `modes/${s.applyMode}/start`));
}

/** ROOT is the shell's route, under which the lender's screens are added. */
export const ROOT = 'root';

export const routes: RouteObject[] = [
  {
    id: ROOT,
    path: '/',
    Component: Shell,
    // What shows while the first screen of a visit is not ready yet (a link's start call still on its way).
    HydrateFallback: ShellFallback,
    ErrorBoundary: RootError,
    children: [
      { index: true, loader: () => redirect('/home') },
      { path: 'home', loader: () => redirect('/idle') },
      { path: 'home/apply', Component: IdlePage, handle: pub },
      { path: 'home/apply/at_home', loader: homeToLender },
      { path: 'home/:flowType', loader: homeToLender },
      { path: 'home/:flowType/:experienceType', loader: homeToLender },
      { path: 'idle', Component: IdlePage, handle: pub },
      { path: 'start', lazy: startPage, loader: clearOnStart, handle: pub },
      { path: 'start/entity-keys/:entityKey', lazy: startFlowPage, loader: startLoader, handle: startHandle },
      { path: 'start/tokens/:token', lazy: startFlowPage, loader: startLoader, handle: startHandle },
      { path: 'finish', lazy: finishPage, handle: pub },
      { path: 'finish/:type', lazy: finishPage, handle: pub },
      { path: 'error', lazy: errorPage, handle: pub },
      { path: '404', lazy: notFound, handle: pub },
      {
        path: 'session/invalid',
        loader: () => {
          flow.clear();
          return redirect('/idle');
        },
      },
      { path: 'internal/version', lazy: version, handle: pub },
      { path: 'contexthelp', lazy: contextHelp, handle: pub },
      { path: 'accessibility', lazy: accessibility, handle: pub },
      { path: 'breakout/:lender/:lenderApplicationId', lazy: breakout, handle: pub },
      // Our documents, public and outside the lender's journey (docs/behaviour.md, "Help and documents"); an unknown name is not found.
      { path: 'docs/:doc', lazy: documentPage, loader: ({ params }) => (isDocName(params.doc) ? null : redirect('/404')), handle: pub },
      { path: 'docs/pdf/:pdfUrl', lazy: pdfPage, loader: ({ params }) => (isPdfName(params.pdfUrl) ? null : redirect('/404')), handle: pub },
      // The guards of wherever these lead apply there: a lender screen still needs the session.
      { path: 'redirect/:redirect', lazy: redirectPage, handle: pub },
      { path: 'test-cases/:id', lazy: testCase, handle: pub },
      // The office's screens ask the server who is signed in, and show the sign-in form to anybody else.
      { path: 'office', lazy: office, handle: officePub },
      { path: 'office/setup/:token', lazy: officeSetup, handle: officePub },
      { path: 'office/invite', lazy: officeInvite, handle: officePub },
      { path: 'office/applications/:id', lazy: officeApplication, handle: officePub },
      { path: 'office/staff', lazy: officeStaff, handle: officePub },
      { path: 'office/audit', lazy: officeAudit, handle: officePub },
      { path: 'office/funding', lazy: officeFunding, handle: officePub },
      { path: 'office/records', lazy: officeRecords, handle: officePub },
      { path: 'office/two-step', lazy: officeTwoStep, handle: officePub },
      { path: '*', loader: () => redirect('/') },
    ],
  },
];

/**
 * addLenderRoutes is the router's patchRoutesOnNavigation: the first time a
 * path under /providers/ is asked for (a start leading to the form, a
 * lender's screen reloaded), it adds the lender's screens under the shell.
 * Until then such a path meets only the catch-all, and the router asks this
 * before it follows a match with parameters. A path that already matches a
 * lender's route loads nothing.
 */
export const addLenderRoutes: PatchRoutesOnNavigationFunction = async ({ path, matches, patch }) => {
  if (!isLenderPath(path) || matches.some((m) => m.route.path === LENDER_ROUTES)) return;
  const { providersRoute } = await import('./lenderRoutes');
  patch(ROOT, [providersRoute]);
};

/** routerOptions are what every router of the route table is made with: the app's and the tests'. */
export const routerOptions = { patchRoutesOnNavigation: addLenderRoutes };
