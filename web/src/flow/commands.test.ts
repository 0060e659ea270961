import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApi } from '@/lib/api/client';
import type { Decision, Document, FieldDefinition, PaymentPlan, Session } from '@/lib/api/types';
import { flow } from '@/stores/flow';
import { acceptOffer, agree, applicationBody, consentNotice, declineMessage, esignAndComplete, submitDecision } from './commands';

const doc = (p: string, sha = `sha-${p}`): Document => ({ id: `doc-${p}`, version: '1', title: `${p} terms`, contentType: 'text/plain', content: 'x', sha256: sha });

const decision = (p: string, code: Decision['responseCode'], next?: string): Decision => ({
  providerKey: p,
  operation: 'prequalify',
  responseCode: code,
  approvedAmountCents: 0,
  stipulations: [],
  pendingReasons: [],
  downPaymentRequired: false,
  existingAccount: false,
  next: next ? { resultType: 'start', autoSubmit: true, provider: next, applyMode: 'prequalify', resume: false } : undefined,
});

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** A server where a declines, then b and c follow on their own; `b` may refuse the consent as changed. */
function server(opts: { bRefuses?: boolean } = {}) {
  const calls: { path: string; body: Record<string, unknown> | null }[] = [];
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const path = new URL(url, 'http://x').pathname.replace('/api/v1', '');
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : null;
    calls.push({ path, body });
    if (path.startsWith('/apply/start/')) return json({ providerKey: 'a', applyMode: 'prequalify', fields: [], fieldGroupRules: [], providers: [] });
    if (path === '/providers/a/prequalify') return json(decision('a', 'declined', 'b'));
    if (path === '/providers/b/prequalify') {
      if (opts.bRefuses) return json({ code: 'consent_required', message: 'The authorisation you agreed to has changed.' }, 400);
      return json(decision('b', 'declined', 'c'));
    }
    if (path === '/providers/c/prequalify') return json(decision('c', 'declined'));
    return json({ code: 'resource_not_found' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

beforeEach(() => {
  configureApi({ getSessionId: () => 's1', navigate: vi.fn(), onValidation: vi.fn(), currentPath: () => '/p' });
  flow.reset();
  flow.set({ session: { webSessionId: 's1' } as Session, providerKey: 'a', primaryProviderKey: 'a', applyMode: 'prequalify' });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** The patient was shown these lenders' documents and agreed to them. */
function shownAndAgreed(...providers: string[]) {
  for (const p of providers) {
    const d = doc(p);
    flow.set({ documents: { ...flow.get().documents, [`${p}:prequalification`]: d } });
    agree(p, 'prequalification', d);
  }
}

describe('consent in the cascade', () => {
  it('sends each lender the consent for exactly the document the patient was shown', async () => {
    const calls = server();
    shownAndAgreed('a', 'b', 'c');
    const to = await submitDecision('prequalify');
    expect(to).toBe('/providers/c/declined');
    const submits = calls.filter((c) => c.path.endsWith('/prequalify'));
    expect(submits.map((c) => c.path)).toEqual(['/providers/a/prequalify', '/providers/b/prequalify', '/providers/c/prequalify']);
    for (const s of submits) {
      const p = s.path.split('/')[2]!;
      expect(s.body?.consent).toEqual({ documentId: `doc-${p}`, documentVersion: '1', documentSha256: `sha-${p}`, agreed: true });
    }
    expect(flow.get().declinedBy).toEqual(['a', 'b', 'c']);
  });

  it('never agrees for the patient: a lender whose document was not shown stops the cascade at its agree screen', async () => {
    const calls = server();
    shownAndAgreed('a', 'b');
    const to = await submitDecision('prequalify');
    expect(to).toBe('/providers/c/prequalifyAgree');
    expect(calls.some((c) => c.path === '/providers/c/prequalify' || c.path.includes('disclosures'))).toBe(false);
    expect(flow.get().providerKey).toBe('c');
    expect(flow.get().consents['c:prequalification']).toBeUndefined();
    expect(flow.get().notice).toContain('couldn’t approve this application');
  });

  it('a consent the server refuses (the document changed) is forgotten and the patient asked again', async () => {
    server({ bRefuses: true });
    shownAndAgreed('a', 'b', 'c');
    const to = await submitDecision('prequalify');
    expect(to).toBe('/providers/b/prequalifyAgree');
    expect(flow.get().consents['b:prequalification']).toBeUndefined();
    expect(flow.get().documents['b:prequalification']).toBeUndefined();
  });

  it('without the current lender’s consent nothing is sent: the patient goes to its agree screen', async () => {
    const calls = server();
    expect(await submitDecision('prequalify')).toBe('/providers/a/prequalifyAgree');
    expect(calls).toEqual([]);
  });

  it('a consent that no longer matches the document shown is not sent', async () => {
    const calls = server();
    shownAndAgreed('a', 'b');
    flow.set({ documents: { ...flow.get().documents, 'b:prequalification': doc('b', 'other') } });
    expect(await submitDecision('prequalify')).toBe('/providers/b/prequalifyAgree');
    expect(calls.some((c) => c.path === '/providers/b/prequalify')).toBe(false);
  });
});

describe('decline wording', () => {
  it('names every lender, never the lender’s own notice', () => {
    expect(declineMessage(['Synchrony'])).toBe('Synchrony couldn’t approve this application. They will send you a letter explaining why within 7–10 business days.');
    expect(declineMessage(['Synchrony', 'Fortiva', 'Snap', 'Proceed'])).toBe(
      'Synchrony, Fortiva, Snap and Proceed couldn’t approve this application. Each will send you a letter explaining why within 7–10 business days.',
    );
    expect(declineMessage([])).toBe('');
  });

  it('tells the patient why they are asked to agree again', () => {
    flow.set({ declinedBy: ['synchrony_standard'] });
    expect(consentNotice([decision('synchrony_standard', 'declined')], 'fortiva_standard')).toBe(
      'Synchrony couldn’t approve this application. They will send you a letter explaining why within 7–10 business days. You can still check your options with Fortiva. First, please read what you agree to with Fortiva below.',
    );
  });
});

/** fetch answering each path from its own list of answers (the last one repeats), recording every call. */
function routes(table: Record<string, (Response | Error | (() => Response))[]>) {
  const calls: { path: string; body: string | undefined; at: number }[] = [];
  const start = Date.now();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = new URL(url, 'http://x').pathname.replace('/api/v1', '');
      calls.push({ path, body: init?.body as string | undefined, at: Date.now() - start });
      const list = table[path];
      if (!list) return json({ code: 'resource_not_found' }, 404);
      const next = list.length > 1 ? list.shift()! : list[0]!;
      if (next instanceof Error) throw next;
      return typeof next === 'function' ? next() : next.clone();
    }),
  );
  return calls;
}
const inFlight = (seconds: number) =>
  new Response(JSON.stringify({ code: 'in_flight', message: 'Already being processed.' }), { status: 409, headers: { 'Retry-After': String(seconds) } });

describe('a lender step still in flight', () => {
  it('keeps the waiting words and asks again after Retry-After with the same body: one result', async () => {
    vi.useFakeTimers();
    shownAndAgreed('a');
    const calls = routes({ '/providers/a/prequalify': [inFlight(4), json(decision('a', 'declined'))] });
    const done = submitDecision('prequalify');
    await vi.advanceTimersByTimeAsync(3_000);
    expect(flow.get().progress).toBe('Checking your options with A…');
    expect(calls.filter((c) => c.path === '/providers/a/prequalify')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(done).resolves.toBe('/providers/a/declined');
    const submits = calls.filter((c) => c.path === '/providers/a/prequalify');
    expect(submits).toHaveLength(2);
    expect(submits[1]!.body).toBe(submits[0]!.body);
    expect(submits[1]!.at - submits[0]!.at).toBe(4_000);
    expect(flow.get().declinedBy).toEqual(['a']);
    expect(flow.get().progress).toBeNull();
  });

  it('after about two minutes it ends in "still working", named for the lender, never an error page', async () => {
    vi.useFakeTimers();
    const navigate = vi.fn();
    configureApi({ getSessionId: () => 's1', navigate, onValidation: vi.fn(), currentPath: () => '/p' });
    shownAndAgreed('a');
    routes({ '/apply/start/providers/a': [json({ providerKey: 'a', applyMode: 'prequalify', fields: [], fieldGroupRules: [], providers: [] })], '/providers/a/prequalify': [() => inFlight(15)] });
    const caught = submitDecision('prequalify').catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(150_000);
    expect(await caught).toMatchObject({ code: 'in_flight', stillWorking: true, providerKey: 'a' });
    expect(navigate).not.toHaveBeenCalled();
  });

  it('acceptOffer: asked again after a dropped connection; tried again later, the confirmation is not repeated', async () => {
    vi.useFakeTimers();
    const plan = { providerKey: 'a', providerPlanCode: 'P12' } as PaymentPlan;
    routes({
      '/providers/a/payment/plans/P12/confirm-selection': [json({})],
      '/providers/a/acceptOffer': [new TypeError('Failed to fetch'), () => inFlight(15)],
    });
    const first = acceptOffer(plan).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(150_000);
    expect(await first).toMatchObject({ stillWorking: true, providerKey: 'a' });
    // Try again: the lender has finished by now.
    routes({ '/providers/a/acceptOffer': [json({ status: 'offer_accepted' })] });
    await expect(acceptOffer(plan)).resolves.toBe('/providers/a/modes/prequalify/offerReviewNext');
    expect((globalThis.fetch as ReturnType<typeof vi.fn>).mock.calls.map((c) => String(c[0]))).toEqual(['/api/v1/providers/a/acceptOffer']);
  });

  it('e-sign: a dropped connection is retried with exactly the same signature, then the application completes', async () => {
    vi.useFakeTimers();
    const consent = { documentId: 'd', documentVersion: '1', documentSha256: 's', agreed: true as const };
    flow.set({ consents: { 'a:esign': consent } });
    const png = 'data:image/png;base64,' + 'A'.repeat(4100);
    const calls = routes({
      '/providers/a/application/esign': [new TypeError('Failed to fetch'), json({ status: 'signed' })],
      '/providers/a/application/complete': [json({ status: 'completed' })],
    });
    const done = esignAndComplete(png);
    await vi.advanceTimersByTimeAsync(500);
    expect(flow.get().progress).toBe('Saving your signature…');
    await vi.advanceTimersByTimeAsync(500);
    await expect(done).resolves.toBe('/providers/a/complete');
    const esigns = calls.filter((c) => c.path.endsWith('/esign'));
    expect(esigns).toHaveLength(2);
    expect(esigns[0]!.body).toBe(esigns[1]!.body);
    expect(JSON.parse(esigns[0]!.body!)).toEqual({ consent, signaturePng: png });
  });
});

describe('whole numbers are never sent as something else', () => {
  const months: FieldDefinition = {
    id: 'monthsEmployed',
    path: 'monthsEmployed',
    name: 'monthsEmployed',
    label: 'Months with this employer',
    type: 'number',
    rules: { required: {} },
  };
  const withFields = () =>
    flow.fieldsLoaded('a:prequalify', { providerKey: 'a', applyMode: 'prequalify', fields: [months], fieldGroupRules: [], providers: [] } as never);

  it('"2.5" months: nothing is sent, the field is shown with the server’s words', async () => {
    const calls = server();
    shownAndAgreed('a');
    withFields();
    flow.set({ primary: { monthsEmployed: '2.5' } });
    expect(applicationBody('a', 'prequalify')).toEqual({ primary: {}, jointEnabled: false });
    await expect(submitDecision('prequalify')).resolves.toBe('/providers/a/correctErrors?applicantType=primary');
    expect(calls.some((c) => c.path.endsWith('/prequalify'))).toBe(false);
    expect(flow.get().validation?.fieldErrors).toEqual([{ field: 'primary.monthsEmployed', message: 'Please enter a whole number.' }]);
    expect(flow.get().validation?.resubmitRoute).toBe('/providers/a/prequalifySubmit');
  });

  it('a whole number is sent as a number', () => {
    withFields();
    flow.set({ primary: { monthsEmployed: '24' } });
    expect(applicationBody('a', 'prequalify')).toEqual({ primary: { monthsEmployed: 24 }, jointEnabled: false });
  });
});
