import { redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import type { ApplyMode } from '@/lib/api/types';
import type { RouteHandle } from '@/flow/navigation';
import type { StepId } from '@/lib/steps';
import { LENDER_ROUTES, lenderRoute } from '@/lib/paths';
import { flow } from '@/stores/flow';
import { withFormMessages } from '@/lib/i18n';
import { page, type Lazy } from './lazyPage';

/*
 * The lender's screens of THE route table (routes.tsx; docs/behaviour.md,
 * "Routes"): everything under /providers/:providerKey. The router adds
 * them the first time a path under /providers/ is asked for
 * (routes.tsx, addLenderRoutes), so the idle screen's first load carries
 * none of them (docs/performance.md, "The first route's budget").
 */

const MODES: ApplyMode[] = ['full', 'prequalify', 'prescreen'];

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
const creditLimitStart = page(() => import('@/features/results/CreditLimitPages'), 'CreditLimitStartPage');
const creditLimitIncome = page(() => import('@/features/results/CreditLimitPages'), 'CreditLimitIncomePage');
const creditLimitResult = page(() => import('@/features/results/CreditLimitPages'), 'CreditLimitResultPage');

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

/** providersRoute is the lender's subtree, added under the shell's route (routes.tsx, ROOT). */
export const providersRoute: RouteObject = {
  path: LENDER_ROUTES,
  children: lenderRoutes.map((r) => {
    const handle = r.handle ?? {};
    if (r.loader) return { path: r.path, handle, loader: r.loader };
    if (r.redirectTo) return { path: r.path, handle, loader: to(r.redirectTo, handle) };
    return { path: r.path, handle, lazy: r.lazy, loader: lenderGuard(handle) };
  }),
};
