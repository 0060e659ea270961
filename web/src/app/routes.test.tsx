import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { decision, fixedRatePlan, textDocument } from '@/test/fixtures';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CurrentLocation, Decision, Document, FieldDefinition, StartFlowResponse, StartLenderResponse } from '@/lib/api/types';
import { flow } from '@/stores/flow';
import { DEMO_LENDERS } from '@/test/catalogue';
import { json, routes as serve, type Call } from '@/test/fetch';
import { openApp } from './testing';

/*
 * Route-level tests: the real route table, shell and screens against a
 * mocked API (fetch), from the start link through the form, the soft-pull
 * consent and the submit to the result the patient sees.
 */

const ENTITY_KEY = '1000200030004000';

const started: StartFlowResponse = {
  session: {
    webSessionId: 'session-1',
    env: 'test',
    groupId: 'group-1',
    properties: { applyMode: 'prequalify', state: 'CA', locationName: 'Bright Smile Dental' },
    experienceType: 'in_store',
    flowType: 'apply',
    warnCountdownMillis: 30_000,
    timeoutAfterMillis: 600_000,
    dynamicProviderKey: 'synchrony_standard',
    showCancelModal: true,
  },
  application: { purchaseAmountCents: 450_000, primary: { firstName: 'Ann', lastName: 'Approve' } },
  location: { name: 'Bright Smile Dental', state: 'CA', groupId: 'group-1', brandName: 'Bright Smile Dental' },
} as StartFlowResponse;

const text = (id: string, label: string, type = 'text'): FieldDefinition => ({
  id,
  path: id,
  name: id,
  label,
  type,
  group: 'personal',
  rules: { required: {} },
});
const fields: StartLenderResponse = {
  providerKey: 'synchrony_standard',
  applyMode: 'prequalify',
  fields: [text('firstName', 'First name'), text('lastName', 'Last name'), { ...text('email', 'Email address', 'email'), group: 'contact' }],
  fieldGroupRules: [],
  providers: DEMO_LENDERS,
};

const location: CurrentLocation = {
  name: 'Bright Smile Dental',
  state: 'CA',
  groupId: 'group-1',
  waterfall: [
    { providerKey: 'synchrony_standard', role: 'primary', applyMode: 'prequalify', autoSubmit: false },
    { providerKey: 'fortiva_standard', role: 'secondary', applyMode: 'prequalify', autoSubmit: true },
  ],
} as CurrentLocation;

const doc = (p: string) =>
  textDocument(`${p}-soft-pull`, 'Authorization to check your credit', {
    version: '3',
    sha256: `sha-${p}`,
    content: `${p} may obtain your credit report.`,
  });

/** The server for one journey: the start, the form, the documents, the email check and the lenders' answers. */
function server(answers: Record<string, Decision>): Call[] {
  return serve({
    [`/flow/start/entity-keys/${ENTITY_KEY}`]: [json(started)],
    '/apply/start/providers/synchrony_standard': [json(fields)],
    '/locations/current': [json(location)],
    '/providers/synchrony_standard/disclosures': [json(doc('synchrony'))],
    '/providers/fortiva_standard/disclosures': [json(doc('fortiva'))],
    '/validate/email': [json({ valid: true })],
    '/providers/synchrony_standard/payment/plans': [json({ paymentPlans: [] })],
    '/log': [new Response(null, { status: 204 })],
    ...Object.fromEntries(Object.entries(answers).map(([path, d]) => [path, [json(d)]])),
  });
}

/** The patient fills the form, confirms the details and agrees to the soft pull of every lender shown. */
async function applyAndAgree(calls: Call[]) {
  expect(await screen.findByRole('heading', { level: 1, name: 'Tell us about yourself' })).toBeTruthy();
  expect(await screen.findByText('You’re checking financing for $4,500.00 of treatment with Synchrony.')).toBeTruthy();
  const email = await screen.findByLabelText(/Email address/);
  expect((screen.getByLabelText(/First name/) as HTMLInputElement).value).toBe('Ann');
  await userEvent.type(email, 'ann@example.com');
  // Leaving the field asks the server about the address (docs/behaviour.md, "Validation").
  await userEvent.tab();
  await waitFor(() =>
    expect(calls.filter((c) => c.path === '/validate/email').map((c) => JSON.parse(c.body!) as unknown)).toEqual([{ email: 'ann@example.com' }]),
  );
  await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
  expect(await screen.findByRole('heading', { name: 'Check your details' })).toBeTruthy();
  await userEvent.click(screen.getByRole('button', { name: 'Confirm and continue' }));

  expect(await screen.findByRole('heading', { level: 1, name: 'Before we check your options' })).toBeTruthy();
  // Synchrony's terms, then those of Fortiva, which is asked on its own after it.
  const lenders = await screen.findAllByRole('heading', { level: 2 });
  expect(lenders.map((h) => h.textContent).filter((t) => t === 'Synchrony' || t === 'Fortiva')).toEqual(['Synchrony', 'Fortiva']);
  const box = screen.getByRole('checkbox', { name: 'I have read these and I agree to a soft credit check by Synchrony and Fortiva.' });
  expect((box as HTMLInputElement).checked).toBe(false);
  await userEvent.click(screen.getByRole('button', { name: 'Check my options' }));
  expect(await screen.findByText('Please check the box to continue')).toBeTruthy();
  await userEvent.click(box);
  await userEvent.click(screen.getByRole('button', { name: 'Check my options' }));
}

const submits = (calls: Call[]) => calls.filter((c) => c.method === 'POST' && c.path.endsWith('/prequalify'));

beforeEach(() => {
  flow.reset();
  vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('application → agree → submit → result, through the real routes', () => {
  it('a prequalified patient sees the good news, with the lender’s name from the server’s catalogue', async () => {
    const calls = server({
      '/providers/synchrony_standard/prequalify': decision('synchrony_standard', 'prequalified', { approvedAmountCents: 500_000 }),
    });
    const router = openApp(`/start/entity-keys/${ENTITY_KEY}`);
    await applyAndAgree(calls);

    expect(await screen.findByRole('heading', { level: 1, name: 'Good news!' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/providers/synchrony_standard/prequalified');
    expect(screen.getByText('Synchrony prequalified you for up to')).toBeTruthy();
    expect(screen.getByText('$5,000.00')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Synchrony logo' })).toBeTruthy();

    const sent = JSON.parse(submits(calls)[0]!.body!) as { primary: Record<string, unknown>; consent: unknown };
    expect(sent.primary).toEqual({ firstName: 'Ann', lastName: 'Approve', email: 'ann@example.com' });
    expect(sent.consent).toEqual({ documentId: 'synchrony-soft-pull', documentVersion: '3', documentSha256: 'sha-synchrony', agreed: true });
    // The transient submit route is not left in history.
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('a decline at every lender of the cascade names each lender on the declined screen', async () => {
    const calls = server({
      '/providers/synchrony_standard/prequalify': decision('synchrony_standard', 'declined', {
        next: { resultType: 'start', autoSubmit: true, provider: 'fortiva_standard', applyMode: 'prequalify', resume: false },
      }),
      '/providers/fortiva_standard/prequalify': decision('fortiva_standard', 'declined'),
    });
    const router = openApp(`/start/entity-keys/${ENTITY_KEY}`);
    await applyAndAgree(calls);

    expect(await screen.findByRole('heading', { level: 1, name: 'This application wasn’t approved' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/providers/fortiva_standard/declined');
    expect(
      screen.getByText(
        'Synchrony and Fortiva couldn’t approve this application. Each will send you a letter explaining why within 7–10 business days.',
      ),
    ).toBeTruthy();
    expect(submits(calls).map((c) => c.path)).toEqual(['/providers/synchrony_standard/prequalify', '/providers/fortiva_standard/prequalify']);
    // Fortiva gets the consent to exactly the document the patient read.
    expect(JSON.parse(submits(calls)[1]!.body!).consent).toEqual({
      documentId: 'fortiva-soft-pull',
      documentVersion: '3',
      documentSha256: 'sha-fortiva',
      agreed: true,
    });
  });

  it('a lender’s screen without a session goes back to the start screen, asking the server nothing', async () => {
    const calls = server({});
    const router = openApp('/providers/synchrony_standard/paymentPlans');
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome to Chairside' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/idle');
    expect(calls).toEqual([]);
  });

  it('the shell shows the office and the applicant throughout', async () => {
    server({ '/providers/synchrony_standard/prequalify': decision('synchrony_standard', 'prequalified', { approvedAmountCents: 500_000 }) });
    openApp(`/start/entity-keys/${ENTITY_KEY}`);
    expect(await screen.findByLabelText(/Email address/)).toBeTruthy();
    const banner = screen.getByRole('banner');
    expect(within(banner).getByText('Bright Smile Dental')).toBeTruthy();
    await waitFor(() => expect(within(banner).getByText('Ann:Approve')).toBeTruthy());
    expect(within(banner).getByRole('button', { name: 'Cancel application' })).toBeTruthy();
  });
});

describe('the first form comes with the start', () => {
  it('the form the start answered is shown without asking the server for it again', async () => {
    const calls = serve({
      [`/flow/start/entity-keys/${ENTITY_KEY}`]: [json({ ...started, form: fields })],
      '/locations/current': [json(location)],
      '/log': [new Response(null, { status: 204 })],
    });
    openApp(`/start/entity-keys/${ENTITY_KEY}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Tell us about yourself' })).toBeTruthy();
    expect(await screen.findByLabelText(/Email address/)).toBeTruthy();
    expect(calls.filter((c) => c.path.startsWith('/apply/start/'))).toEqual([]);
  });

  it('a form in English is asked for again when the office speaks Spanish', async () => {
    const calls = serve({
      [`/flow/start/entity-keys/${ENTITY_KEY}`]: [json({ ...started, form: fields, location: { ...started.location, language: 'es' } })],
      '/apply/start/providers/synchrony_standard': [json({ ...fields, fields: [text('firstName', 'Nombre')] })],
      '/locations/current': [json(location)],
      '/log': [new Response(null, { status: 204 })],
    });
    openApp(`/start/entity-keys/${ENTITY_KEY}`);
    expect(await screen.findByLabelText(/Nombre/)).toBeTruthy();
    expect(screen.queryByLabelText(/Email address/)).toBeNull();
    expect(calls.filter((c) => c.path === '/apply/start/providers/synchrony_standard')).toHaveLength(1);
  });
});

describe('after accepting, a lender with steps of its own', () => {
  it('goes to the first step the accept answer says is open (HFD: the down payment), not to signing', async () => {
    const plan = fixedRatePlan('hfd_standard', { providerPlanCode: 'HFD-IL-06', downPaymentCents: 45_000 });
    const calls = serve({
      '/providers/hfd_standard/payment/plans/HFD-IL-06/confirm-selection': [json({ status: 'plan_confirmed' })],
      '/providers/hfd_standard/acceptOffer': [
        json({ providerKey: 'hfd_standard', status: 'offer_accepted', openSteps: ['downpayment', 'additionalContactInformation', 'loanPayment'] }),
      ],
      '/locations/current': [json(location)],
      '/log': [new Response(null, { status: 204 })],
    });
    flow.set({
      session: started.session,
      experienceType: 'in_store',
      providerKey: 'hfd_standard',
      primaryLenderKey: 'hfd_standard',
      applyMode: 'prequalify',
      purchaseAmountCents: 450_000,
      lenders: Object.fromEntries(DEMO_LENDERS.map((p) => [p.providerKey, p])),
      selectedPaymentPlan: plan,
    });
    flow.response('hfd_standard', {
      preAuth: { ...decision('hfd_standard', 'prequalified', { approvedAmountCents: 500_000 }), operation: 'prequalify' },
      paymentPlans: [plan],
      paymentPlansAmountCents: 450_000,
      selectedPlanCode: plan.providerPlanCode,
    });
    const router = openApp('/providers/hfd_standard/paymentPlanReview');
    await userEvent.click(await screen.findByRole('button', { name: 'Accept offer' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Your down payment' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/providers/hfd_standard/downpayment');
    expect(calls.some((c) => c.path.endsWith('/esign'))).toBe(false);
  });
});

describe('a full application, after the plan is accepted', () => {
  it('goes to the agreement and the signature (no "Good news" again), in the payment-options step', async () => {
    const plan = fixedRatePlan('synchrony_standard');
    const agreement: Document = { ...doc('synchrony'), id: 'synchrony-agreement', title: 'Credit agreement' };
    const calls = serve({
      '/providers/synchrony_standard/payment/plans/FR24/confirm-selection': [json({ status: 'plan_confirmed' })],
      '/providers/synchrony_standard/acceptOffer': [json({ status: 'offer_accepted' })],
      '/providers/synchrony_standard/agreement': [json(agreement)],
      '/providers/synchrony_standard/disclosures': [json({ ...doc('synchrony'), id: 'synchrony-esign', title: 'Electronic records' })],
      '/log': [new Response(null, { status: 204 })],
    });
    flow.set({
      session: started.session,
      providerKey: 'synchrony_standard',
      primaryLenderKey: 'synchrony_standard',
      applyMode: 'full',
      lenders: Object.fromEntries(DEMO_LENDERS.map((p) => [p.providerKey, p])),
      selectedPaymentPlan: plan,
    });
    flow.response('synchrony_standard', {
      apply: decision('synchrony_standard', 'approved', { operation: 'apply', approvedAmountCents: 500_000 }),
      paymentPlans: [plan],
      paymentPlansAmountCents: 450_000,
      selectedPlanCode: plan.providerPlanCode,
    });
    const router = openApp('/providers/synchrony_standard/paymentPlanReview');
    await userEvent.click(await screen.findByRole('button', { name: 'Accept offer' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Read and sign' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/providers/synchrony_standard/terms');
    expect(await screen.findByRole('region', { name: 'Credit agreement' })).toBeTruthy();
    // The offer came from the full application: its hard pull was authorised before applying.
    expect(screen.queryByRole('heading', { name: 'Permission for a full credit check' })).toBeNull();
    const current = screen.getByRole('navigation', { name: 'Progress' }).querySelector('[aria-current="step"]');
    expect(current?.textContent).toContain('Payment options');
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
      '/providers/synchrony_standard/payment/plans/FR24/confirm-selection',
      '/providers/synchrony_standard/acceptOffer',
      '/providers/synchrony_standard/agreement',
    ]);
  });
});

describe('the footer', () => {
  it('carries the mark of a lender whose program asks for it, on that lender’s screens only', async () => {
    serve({ '/log': [new Response(null, { status: 204 })] });
    const marked = DEMO_LENDERS.map((p) => (p.providerKey === 'synchrony_standard' ? { ...p, footerLogo: '/logos/synchrony.svg' } : p));
    flow.set({
      session: started.session,
      providerKey: 'synchrony_standard',
      primaryLenderKey: 'synchrony_standard',
      lenders: Object.fromEntries(marked.map((p) => [p.providerKey, p])),
    });
    const router = openApp('/providers/synchrony_standard/declined');
    const footer = await screen.findByRole('contentinfo');
    await waitFor(() => expect(within(footer).getByText(/Financing offered by/)).toBeTruthy());
    expect(within(footer).getByRole('img', { name: 'Synchrony' }).getAttribute('src')).toBe('/logos/synchrony.svg');
    await router.navigate('/providers/fortiva_standard/declined');
    await waitFor(() => expect(within(screen.getByRole('contentinfo')).queryByText(/Financing offered by/)).toBeNull());
  });
});

/*
 * The start route's loader starts the session and leads straight on to the
 * form (app/routes.tsx, startLoader); the start screen shows only what went
 * wrong.
 */
describe('a link that cannot start', () => {
  it('a key that cannot be one says the link is not complete, and starts nothing', async () => {
    const calls = serve({ '/log': [new Response(null, { status: 204 })] });
    const router = openApp('/start/entity-keys/12345');
    expect(await screen.findByText(/This link is not complete\. Please scan the QR code again/)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/start/entity-keys/12345');
    expect(calls.filter((c) => c.path.startsWith('/flow/start'))).toEqual([]);
  });

  it('an office the server does not know goes to the page that explains it', async () => {
    serve({
      [`/flow/start/entity-keys/${ENTITY_KEY}`]: [json({ code: 'resource_not_found', message: 'Not found.' }, 404)],
      '/log': [new Response(null, { status: 204 })],
    });
    const router = openApp(`/start/entity-keys/${ENTITY_KEY}`);
    await waitFor(() => expect(router.state.location.pathname).toBe('/error'));
    expect(router.state.location.search).toBe('?code=resource_not_found');
    expect(screen.queryByText(/This link is not complete|We could not start your application/)).toBeNull();
  });

  it('an answer the app cannot use says the application could not start', async () => {
    serve({ [`/flow/start/entity-keys/${ENTITY_KEY}`]: [json({})], '/log': [new Response(null, { status: 204 })] });
    const router = openApp(`/start/entity-keys/${ENTITY_KEY}`);
    expect(await screen.findByText(/We could not start your application\. Please ask/)).toBeTruthy();
    expect(router.state.location.pathname).toBe(`/start/entity-keys/${ENTITY_KEY}`);
  });
});
