import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { type RouteObject } from 'react-router';
import type { CurrentLocation, Document, StartLenderResponse } from '@/lib/api/types';
import type { RouteHandle } from '@/flow/navigation';
import { flow } from '@/stores/flow';
import { DEMO_LENDERS } from '@/test/catalogue';
import { json, routes as serve } from '@/test/fetch';
import { decision, fixedRatePlan } from '@/test/fixtures';
import { providersRoute } from './lenderRoutes';
import { liveSession as openSession, openApp } from './testing';

/*
 * Every lender route of the route table (docs/behaviour.md, "Routes"),
 * reached with a live session and a prequalified offer against a mocked
 * API: none shows the not-found page or falls through to the catch-all
 * (which leads to /idle). A screen stays where it is; a transient route (a
 * submit, or an address that only redirects) replaces itself with a real
 * screen.
 */

const P = 'synchrony_standard';

const lenderChildren: RouteObject[] = providersRoute.children!;

/** The addresses of docs/behaviour.md "Routes" the table must keep, lender overrides included. */
const DOCUMENTED = [
  'modes/:mode/start',
  'modes/:mode/primary/start',
  'modes/:mode/switch',
  'modes/:mode/application',
  'modes/:mode/jointApplication',
  'modes/:mode/applicationNext',
  'modes/:mode/offerReviewNext',
  'prequalifyAgree',
  'prequalifyAgreeNext',
  'prequalifySubmit',
  'fullApplicationSubmit',
  'acceptOfferSubmit',
  'esignApplicationSubmit',
  'completeApplicationSubmit',
  'patchSubmit',
  'checkCalifornia',
  'checkCaliforniaNext',
  'checkWisconsin',
  'checkWisconsinNext',
  'downpayment',
  'additionalContactInformation',
  'loanPayment',
  'agreement',
  'completeAgreement',
  'resume/from-payment-plans',
  'quiz',
  'addBankAccount',
  'paymentSelection',
  'under-review',
  'patch/:patchType',
  'approved',
  'preapproved',
  'prequalified',
  'patchSuccessful',
  'paymentPlans',
  'amountChanged',
  'paymentPlanReview',
  'offerReview',
  'terms',
  'complete',
  'declined',
  'pending',
  'true-pending',
  'expired',
  'nooffer',
  'error',
  'existingAccount',
  'credit_limit_change/start',
  'credit_limit_change/income',
  'credit_limit_change/result',
  'acceptOfferError',
  'correctErrors',
  'pass',
  'fail',
  'resume',
  'resume/*',
];

/** The concrete address of a route pattern: one mode, one resume kind. */
function concrete(pattern: string, mode = 'prequalify'): string {
  return `/providers/${P}/${pattern.replace(':mode', mode).replace('*', 'after-full-apply')}`;
}

/** A route that only redirects (no screen of its own) or is marked transient. */
function isTransient(r: RouteObject): boolean {
  return Boolean((r.handle as RouteHandle | undefined)?.transient) || (!r.lazy && !r.Component && !r.element);
}

const plan = fixedRatePlan(P);

const doc: Document = { id: 'd', version: '1', title: 'Terms', contentType: 'text/plain', content: 'Terms.', language: 'en', sha256: 'sha' };

function server() {
  return serve({
    [`/apply/start/providers/${P}`]: [
      json({ providerKey: P, applyMode: 'prequalify', fields: [], fieldGroupRules: [], providers: DEMO_LENDERS } as StartLenderResponse),
    ],
    '/locations/current': [
      json({
        name: 'Bright Smile Dental',
        state: 'CA',
        groupId: 'g',
        waterfall: [{ providerKey: P, role: 'primary', applyMode: 'prequalify', autoSubmit: false }],
      } as CurrentLocation),
    ],
    [`/providers/${P}/disclosures`]: [json(doc)],
    [`/providers/${P}/agreement`]: [json(doc)],
    [`/providers/${P}/payment/plans`]: [json({ paymentPlans: [plan] })],
    [`/providers/${P}/account/terms`]: [
      json({
        providerKey: P,
        creditLimitCents: 100_000,
        availableCreditCents: 100_000,
        purchaseAmountCents: 450_000,
        maxLimitCents: 2_500_000,
        document: doc,
      }),
    ],
    '/application/amounts': [json({ purchaseAmountCents: 380_000, insuranceBenefitsCents: 0 })],
    '/log': [new Response(null, { status: 204 })],
  });
}

function liveSession() {
  openSession(P, {
    purchaseAmountCents: 450_000,
    primary: { firstName: 'Ann', lastName: 'Approve' },
    selectedPaymentPlan: plan,
  });
  flow.response(P, {
    preAuth: { ...decision(P, 'prequalified', { approvedAmountCents: 500_000, expiresAt: '2030-01-01T00:00:00Z' }), operation: 'prequalify' },
    paymentPlans: [plan],
    paymentPlansAmountCents: 450_000,
  });
}

const FALLTHROUGH = ['/', '/home', '/idle', '/404', '/session/invalid'];

beforeEach(() => {
  flow.reset();
  vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  server();
  liveSession();
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('every lender route is reachable', () => {
  it('the table has every documented address, and the test knows every address of the table', () => {
    const inTable = lenderChildren.map((r) => r.path);
    // An address added to the table is listed here too, and one listed here is in the table.
    expect([...inTable].sort()).toEqual([...DOCUMENTED].sort());
  });

  it('an address not in the table falls through to the catch-all (what the checks below rule out)', async () => {
    const router = openApp(`/providers/${P}/noSuchScreen`);
    await waitFor(() => expect(router.state.location.pathname).toBe('/idle'));
  });

  const screens = lenderChildren.filter((r) => !isTransient(r));
  const transients = lenderChildren.filter(isTransient);

  it.each(screens.map((r) => [r.path!]))('%s shows its own screen', async (pattern) => {
    const path = concrete(pattern);
    const router = openApp(path);
    await waitFor(() => expect(router.state.navigation.state).toBe('idle'));
    expect(await screen.findByRole('heading', { level: 1 })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Page not found' })).toBeNull();
    expect(router.state.location.pathname).toBe(path);
  });

  it.each(transients.map((r) => [r.path!]))('%s (transient) leads to a real screen', async (pattern) => {
    const path = concrete(pattern);
    const router = openApp(path);
    await waitFor(() => expect(router.state.location.pathname).not.toBe(path), { timeout: 4000 });
    await waitFor(() => expect(router.state.navigation.state).toBe('idle'));
    const landed = router.state.location.pathname;
    expect(FALLTHROUGH).not.toContain(landed);
    expect(screen.queryByRole('heading', { name: 'Page not found' })).toBeNull();
    // Where it landed is itself a route of the table (or a public page such as /error).
    expect(landed.startsWith(`/providers/${P}/`) || landed === '/error' || landed.startsWith('/finish')).toBe(true);
  });

  it.each(['full', 'prescreen'])('the mode addresses work in %s mode too', async (mode) => {
    const path = concrete('modes/:mode/application', mode);
    const router = openApp(path);
    await waitFor(() => expect(router.state.navigation.state).toBe('idle'));
    expect(await screen.findByRole('heading', { level: 1 })).toBeTruthy();
    expect(router.state.location.pathname).toBe(path);
  });
});

describe('the office changed the treatment amount', () => {
  it('a step answered amount_changed leads to the plans for the new amount, with a notice, and the old plans set aside', async () => {
    const router = openApp(`/providers/${P}/amountChanged`);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/providers/${P}/paymentPlans`));
    expect(flow.get().purchaseAmountCents).toBe(380_000);
    expect(flow.get().selectedPaymentPlan).toBeNull();
    expect(await screen.findByText(/changed the treatment amount to \$3,800\.00/)).toBeTruthy();
  });
});

describe('resume/after-full-apply through the real routes', () => {
  const proceed = 'proceed_standard';
  it.each([
    [['esign'], 'terms'],
    [['additional_documents_needed'], 'terms'],
    [[], 'paymentPlans'],
  ])('proceed with pending reasons %j → %s', async (reasons, dest) => {
    flow.set({ providerKey: proceed, applyMode: 'full' });
    flow.response(proceed, { apply: decision(proceed, 'pending', { operation: 'apply', pendingReasons: reasons }) });
    const router = openApp(`/providers/${proceed}/resume/after-full-apply`);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/providers/${proceed}/${dest}`));
  });

  it('another lender with plans goes to its plans', async () => {
    const router = openApp(`/providers/${P}/resume/after-full-apply`);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/providers/${P}/paymentPlans`));
  });
});

/*
 * The routes where we follow the server rather than the route table's fixed
 * target (docs/decisions.md, "Routes where we follow the server, not the
 * route table").
 */
describe('routes that follow the server', () => {
  it('resume/from-open goes to the offer the patient has, not back to the form', async () => {
    const router = openApp(`/providers/${P}/resume/from-open`);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/providers/${P}/paymentPlans`));
  });

  it('resume/from-open without an offer goes to the application in the current mode', async () => {
    flow.response(P, { preAuth: undefined, paymentPlans: undefined });
    const router = openApp(`/providers/${P}/resume/from-open`);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/providers/${P}/modes/prequalify/application`));
  });

  it.each(['modes/full/offerReviewNext', 'checkWisconsinNext'])('%s goes to the first step the server lists as open', async (path) => {
    flow.response(P, { openSteps: ['checkCalifornia', 'terms'] });
    const router = openApp(`/providers/${P}/${path}`);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/providers/${P}/checkCalifornia`));
  });

  it('preapproved keeps its own screen and words', async () => {
    flow.response(P, { preAuth: { ...decision(P, 'preapproved', { approvedAmountCents: 500_000 }), operation: 'prescreen' } });
    const router = openApp(`/providers/${P}/preapproved`);
    await waitFor(() => expect(router.state.navigation.state).toBe('idle'));
    expect(router.state.location.pathname).toBe(`/providers/${P}/preapproved`);
    expect(await screen.findByText(/pre-approved you for up to/)).toBeTruthy();
    expect(screen.queryByText(/prequalified/i)).toBeNull();
  });
});
