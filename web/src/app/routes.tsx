import { redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import type { ApplyMode } from '@/lib/api/types';
import type { RouteHandle } from '@/flow/navigation';
import type { StartProblem } from '@/features/start/StartPage';
import type { StepId } from '@/lib/steps';
import { lenderRoute } from '@/lib/paths';
import { isDocName, isPdfName } from '@/lib/docLinks';
import { flow } from '@/stores/flow';
import { withFormMessages, withJourneyMessages } from '@/lib/i18n';
import { Shell, ShellFallback } from './Shell';
import { RootError } from './RootError';
import { IdlePage } from '@/features/start/IdlePage';

/*
 * THE route table (docs/behaviour.md, "Routes"). Every screen is lazy-loaded
 * except the idle screen, which is where a fresh visit lands; guards are
 * loaders.
 */

const MODES: ApplyMode[] = ['full', 'prequalify', 'prescreen'];

type Lazy = RouteObject['lazy'];
const page = (loader: () => Promise<Record<string, unknown>>, name: string, words = withJourneyMessages): Lazy =>
  (async () => {
    // The screen's words load beside its code (lib/i18n.ts): the form's with the start screen and the form, the journey's with any later screen.
    const m = await words(loader)();
    return { Component: m[name] as React.ComponentType };
  }) as Lazy;

const application = page(() => import('@/features/application/ApplicationPage'), 'ApplicationPage', withFormMessages);
const jointApplication = page(() => import('@/features/application/ApplicationPage'), 'JointApplicationPage', withFormMessages);
const correctErrors = page(() => import('@/features/application/ApplicationPage'), 'CorrectErrorsPage', withFormMessages);
const prequalifyAgree = page(() => import('@/features/application/PrequalifyAgreePage'), 'PrequalifyAgreePage');
const submit = page(() => import('./SubmitRoute'), 'SubmitRoute');
const positive = page(() => import('@/features/results/ResultPages'), 'PositiveResultPage');
const declined = page(() => import('@/features/results/ResultPages'), 'DeclinedPage');
const pending = page(() => import('@/features/results/ResultPages'), 'PendingPage');
const nooffer = page(() => import('@/features/results/ResultPages'), 'NoOfferPage');
const lenderError = page(() => import('@/features/results/ResultPages'), 'LenderErrorPage');
const existingAccount = page(() => import('@/features/results/ResultPages'), 'ExistingAccountPage');
const truePending = page(() => import('@/features/results/ResultPages'), 'TruePendingPage');
const expired = page(() => import('@/features/results/ResultPages'), 'ExpiredPage');
const underReview = page(() => import('@/features/results/ResultPages'), 'UnderReviewPage');
const patchPage = page(() => import('@/features/results/PatchPage'), 'PatchPage');
const acceptOfferError = page(() => import('@/features/results/ResultPages'), 'AcceptOfferErrorPage');
const paymentPlans = page(() => import('@/features/offers/PaymentPlansPage'), 'PaymentPlansPage');
const paymentPlanReview = page(() => import('@/features/offers/PaymentPlanReviewPage'), 'PaymentPlanReviewPage');
const terms = page(() => import('@/features/signing/TermsPage'), 'TermsPage');
const addBankAccount = page(() => import('@/features/payment/PaymentPages'), 'BankAccountPage');
const paymentSelection = page(() => import('@/features/payment/PaymentPages'), 'PaymentSelectionPage');
const quiz = page(() => import('@/features/quiz/QuizPage'), 'QuizPage');
const downPayment = page(() => import('@/features/offers/DownPaymentPage'), 'DownPaymentPage');
const additionalContact = page(() => import('@/features/lender-steps/AdditionalContactPage'), 'AdditionalContactPage');
const loanPayment = page(() => import('@/features/payment/PaymentPages'), 'LoanPaymentPage');
const agreementStep = page(() => import('@/features/signing/StepAgreementPages'), 'AgreementPage');
const completeAgreement = page(() => import('@/features/signing/StepAgreementPages'), 'CompleteAgreementPage');
const wisconsin = page(() => import('@/features/lender-steps/WisconsinPage'), 'WisconsinPage');
const california = page(() => import('@/features/lender-steps/CaliforniaPage'), 'CaliforniaPage');
const complete = page(() => import('@/features/finish/CompletePage'), 'CompletePage');
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
const creditLimitStart = page(() => import('@/features/results/CreditLimitPages'), 'CreditLimitStartPage');
const creditLimitIncome = page(() => import('@/features/results/CreditLimitPages'), 'CreditLimitIncomePage');
const creditLimitResult = page(() => import('@/features/results/CreditLimitPages'), 'CreditLimitResultPage');

const pub: RouteHandle = { public: true, hideStepper: true };
/** The office's screens are public too, and are staff screens: no patients' help or footer words (Shell). */
const officePub: RouteHandle = { ...pub, staff: true };

/** clearOnStart: going to a route under /start clears the stored state. */
function clearOnStart(): null {
  flow.reset();
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

/** lenderGuard: no session → sessionInvalid; mode and providerKey params set the store. */
function lenderGuard(handle: RouteHandle) {
  return ({ params }: LoaderFunctionArgs): null => {
    const s = flow.get();
    if (!s.session) throw redirect('/session/invalid');
    const patch: Partial<ReturnType<typeof flow.get>> = {};
    if (params.mode) {
      if (!MODES.includes(params.mode as ApplyMode)) throw redirect('/404');
      if (params.mode !== s.applyMode) patch.applyMode = params.mode as ApplyMode;
    }
    if (params.providerKey && !handle.disableSwitch && params.providerKey !== s.providerKey) patch.providerKey = params.providerKey;
    if (Object.keys(patch).length) flow.set(patch);
    return null;
  };
}

type Params = Record<string, string | undefined>;

/**
 * to is a redirect route: its own guard runs first, with its handle, so a
 * route that keeps the lender (disableSwitch) keeps it, and a redirect that
 * loads code to decide (resumeTarget) loads none without a session.
 */
function to(fn: (p: Params) => string | Promise<string>, handle: RouteHandle = {}) {
  return (args: LoaderFunctionArgs): Response | Promise<Response> => {
    lenderGuard(handle)(args);
    const target = fn(args.params);
    return typeof target === 'string' ? redirect(target) : target.then((t) => redirect(t));
  };
}

/** toApplication is the start of a lender's form: it also fetches the form's fields while the screen's code loads. */
function toApplication(args: LoaderFunctionArgs): Response | Promise<Response> {
  // The guard runs first: without a session nothing is fetched.
  const response = to((p) => prov(p, `modes/${p.mode}/application`))(args);
  const { providerKey, mode } = args.params;
  if (providerKey && MODES.includes(mode as ApplyMode)) {
    void import('@/features/application/api/fields').then((m) => m.loadFields(providerKey, mode as ApplyMode)).catch(() => undefined);
  }
  return response;
}

/** prov builds a path of the route's own lender. */
const prov = (p: Params, rest: string) => lenderRoute(p.providerKey ?? '', rest);

/**
 * firstOpenStep leads to the lender's first own step still open as last
 * heard (lib/lenderSteps.ts keeps the list), or to signing. It reads the
 * store only, so the lender steps' calls stay out of the first route.
 */
const firstOpenStep = (p: Params) => prov(p, flow.get().responses[p.providerKey ?? '']?.openSteps?.[0] ?? 'terms');

interface LenderRoute {
  path: string;
  handle?: RouteHandle;
  lazy?: Lazy;
  redirectTo?: (p: Params) => string | Promise<string>;
  /** A redirect with its own loader. */
  loader?: (args: LoaderFunctionArgs) => Response | Promise<Response>;
}

/**
 * termsStep: in a full application the terms screen is the hard-pull
 * consent before the decision (its own step) and the signing after an
 * accepted offer, which belongs to the payment options (the full flow has no
 * accept step); in a quick check it is the signing of the accepted offer.
 */
function termsStep(mode: string): StepId {
  if (mode !== 'full') return 'acceptOffer';
  const s = flow.get();
  return s.responses[s.providerKey ?? '']?.accepted ? 'paymentOptions' : 'termsAndConditions';
}

const lenderRoutes: LenderRoute[] = [
  { path: 'modes/:mode/start', loader: toApplication },
  { path: 'modes/:mode/primary/start', redirectTo: (p) => prov(p, `modes/${p.mode}/application`) },
  { path: 'modes/:mode/switch', redirectTo: (p) => prov(p, `modes/${p.mode}/application`) },
  { path: 'modes/:mode/application', lazy: application, handle: { step: 'patientInfo' } },
  { path: 'modes/:mode/jointApplication', lazy: jointApplication, handle: { step: 'jointApplicantInfo' } },
  { path: 'modes/:mode/applicationNext', redirectTo: (p) => prov(p, p.mode === 'full' ? 'terms' : 'prequalifyAgree') },
  // After accepting an offer, in every mode: the lender's own steps the server says are open
  // (the identity quiz, Snap's checking account, HFD's down payment …), then the agreement, the
  // consents and the signature (docs/behaviour.md, "Signing").
  { path: 'modes/:mode/offerReviewNext', redirectTo: firstOpenStep },
  { path: 'quiz', lazy: quiz, handle: { step: (m) => (m === 'full' ? 'paymentOptions' : 'acceptOffer') } },
  { path: 'addBankAccount', lazy: addBankAccount, handle: { step: (m) => (m === 'full' ? 'paymentOptions' : 'acceptOffer') } },
  { path: 'paymentSelection', lazy: paymentSelection, handle: { step: (m) => (m === 'full' ? 'paymentOptions' : 'acceptOffer') } },
  { path: 'downpayment', lazy: downPayment, handle: { step: (m) => (m === 'full' ? 'paymentOptions' : 'acceptOffer') } },
  {
    path: 'additionalContactInformation',
    lazy: additionalContact,
    handle: { step: (m) => (m === 'full' ? 'paymentOptions' : 'acceptOffer') },
  },
  { path: 'loanPayment', lazy: loanPayment, handle: { step: (m) => (m === 'full' ? 'paymentOptions' : 'acceptOffer') } },
  { path: 'agreement', lazy: agreementStep, handle: { step: (m) => (m === 'full' ? 'paymentOptions' : 'acceptOffer') } },
  { path: 'checkWisconsin', lazy: wisconsin, handle: { step: (m) => (m === 'full' ? 'paymentOptions' : 'acceptOffer') } },
  { path: 'checkWisconsinNext', redirectTo: firstOpenStep, handle: { transient: true } },
  { path: 'checkCalifornia', lazy: california, handle: { step: (m) => (m === 'full' ? 'paymentOptions' : 'acceptOffer') } },
  { path: 'checkCaliforniaNext', redirectTo: firstOpenStep, handle: { transient: true } },
  { path: 'completeAgreement', lazy: completeAgreement, handle: { step: (m) => (m === 'full' ? 'paymentOptions' : 'acceptOffer') } },
  { path: 'prequalifyAgree', lazy: prequalifyAgree, handle: { step: 'patientInfo', disableSwitch: true } },
  { path: 'prequalifyAgreeNext', redirectTo: (p) => prov(p, 'prequalifySubmit'), handle: { disableSwitch: true } },
  { path: 'prequalifySubmit', lazy: submit, handle: { step: 'patientInfo', transient: true } },
  { path: 'fullApplicationSubmit', lazy: submit, handle: { step: 'termsAndConditions', transient: true } },
  { path: 'acceptOfferSubmit', lazy: submit, handle: { step: 'acceptOffer', transient: true } },
  { path: 'esignApplicationSubmit', lazy: submit, handle: { step: 'acceptOffer', transient: true } },
  { path: 'completeApplicationSubmit', lazy: submit, handle: { step: 'complete', transient: true } },
  { path: 'patchSubmit', lazy: submit, handle: { transient: true } },
  { path: 'approved', lazy: positive, handle: { step: 'paymentOptions' } },
  { path: 'preapproved', lazy: positive, handle: { step: 'paymentOptions' } },
  { path: 'prequalified', lazy: positive, handle: { step: 'paymentOptions' } },
  { path: 'patchSuccessful', redirectTo: (p) => prov(p, 'paymentPlans') },
  { path: 'paymentPlans', lazy: paymentPlans, handle: { step: 'paymentOptions' } },
  // The office changed the treatment amount (docs/behaviour.md, "Changing the amount"): read it again, then the plans.
  { path: 'amountChanged', redirectTo: amountChangedTarget, handle: { transient: true } },
  { path: 'paymentPlanReview', lazy: paymentPlanReview, handle: { step: (m) => (m === 'full' ? 'paymentOptions' : 'acceptOffer') } },
  { path: 'offerReview', redirectTo: (p) => prov(p, 'paymentPlanReview') },
  { path: 'terms', lazy: terms, handle: { step: termsStep, hideHelpButton: true } },
  { path: 'complete', lazy: complete, handle: { step: 'complete' } },
  { path: 'declined', lazy: declined, handle: { hideStepper: true } },
  { path: 'pending', lazy: pending, handle: { hideStepper: true } },
  // Lender overrides of the decision routing (lib/decision.ts, LENDER_ROUTING).
  { path: 'true-pending', lazy: truePending, handle: { hideStepper: true } },
  { path: 'expired', lazy: expired, handle: { hideStepper: true } },
  // A pending answer for a fraud and identity review, at any lender (lib/decision.ts).
  { path: 'under-review', lazy: underReview, handle: { hideStepper: true } },
  // What a pending lender asked for (docs/behaviour.md, "Pending, patches and stipulations").
  { path: 'patch/:patchType', lazy: patchPage, handle: { hideStepper: true } },
  { path: 'nooffer', lazy: nooffer, handle: { step: 'beginStandardApplication', stepFlow: 'nooffer' } },
  { path: 'error', lazy: lenderError, handle: { hideStepper: true } },
  { path: 'existingAccount', lazy: existingAccount, handle: { hideStepper: true } },
  // A higher limit on an existing revolving account (docs/behaviour.md, "Credit-limit change").
  { path: 'credit_limit_change/start', lazy: creditLimitStart, handle: { step: 'paymentOptions' } },
  { path: 'credit_limit_change/income', lazy: creditLimitIncome, handle: { step: 'paymentOptions' } },
  { path: 'credit_limit_change/result', lazy: creditLimitResult, handle: { step: 'paymentOptions' } },
  { path: 'acceptOfferError', lazy: acceptOfferError, handle: { hideStepper: true } },
  { path: 'correctErrors', lazy: correctErrors, handle: { step: 'patientInfo' } },
  { path: 'pass', redirectTo: (p) => prov(p, 'terms') },
  { path: 'fail', redirectTo: (p) => prov(p, 'declined') },
  { path: 'resume', redirectTo: (p) => resumeTarget(p), handle: { hideStepper: true } },
  // Back to the plans from a lender step (Snap's payment screens): the plans screen fetches them when it has none.
  { path: 'resume/from-payment-plans', redirectTo: (p) => prov(p, 'paymentPlans'), handle: { hideStepper: true } },
  { path: 'resume/*', redirectTo: (p) => resumeTarget(p), handle: { hideStepper: true } },
];

/**
 * resumeTarget loads the decision routing (lib/decision.ts) when it is
 * asked rather than with the first route: the result screens that lead
 * here have loaded it already, and without a session the guard has sent the
 * patient elsewhere first.
 */
async function resumeTarget(p: Params): Promise<string> {
  const { afterFullApplyDestination, isPositive } = await import('@/lib/decision');
  const s = flow.get();
  const r = s.responses[p.providerKey ?? ''];
  if (p['*'] === 'after-full-apply') {
    const dest = afterFullApplyDestination(p.providerKey ?? '', r?.apply, Boolean(r?.paymentPlans?.length));
    if (dest) return prov(p, dest);
  }
  if (r?.paymentPlans?.length) return prov(p, 'paymentPlans');
  // An existing account's offer: its plans, fetched by the plans screen.
  if (p['*'] === 'with-existing-account' && isPositive((r?.apply ?? r?.preAuth)?.responseCode)) return prov(p, 'paymentPlans');
  return prov(p, `modes/${s.applyMode}/application`);
}

async function amountChangedTarget(p: Params): Promise<string> {
  const { refreshAmounts } = await import('@/features/offers/api/amounts');
  await refreshAmounts();
  return prov(p, 'paymentPlans');
}

function homeToLender(): Response {
  const s = flow.get();
  if (!s.session || !s.providerKey) return redirect('/idle');
  return redirect(lenderRoute(s.providerKey, `modes/${s.applyMode}/start`));
}

export const routes: RouteObject[] = [
  {
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
      {
        path: 'providers/:providerKey',
        children: lenderRoutes.map((r) => {
          const handle = r.handle ?? {};
          if (r.loader) return { path: r.path, handle, loader: r.loader };
          if (r.redirectTo) return { path: r.path, handle, loader: to(r.redirectTo, handle) };
          return { path: r.path, handle, lazy: r.lazy, loader: lenderGuard(handle) };
        }),
      },
      { path: '*', loader: () => redirect('/') },
    ],
  },
];
