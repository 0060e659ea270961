import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { decision as decisionOf, withMonthsField } from '@/test/fixtures';
import { submitDecision } from '@/features/results/api/submit';
import { configureApi } from '@/lib/api/client';
import type { Decision, Document, FieldDefinition, Session } from '@/lib/api/types';
import { agree } from '@/lib/consent/documents';
import { flow } from '@/stores/flow';
import { lender, withCatalogue } from '@/test/catalogue';
import { apiPath, inFlight, json, routes } from '@/test/fetch';
import { submitDeps } from './submissions';

const doc = (p: string, sha = `sha-${p}`): Document => ({
  id: `doc-${p}`,
  version: '1',
  title: `${p} terms`,
  contentType: 'text/plain',
  content: 'x',
  language: 'en',
  sha256: sha,
});

const decision = (p: string, code: Decision['responseCode'], next?: string): Decision =>
  decisionOf(p, code, { next: next ? { resultType: 'start', autoSubmit: true, provider: next, applyMode: 'prequalify', resume: false } : undefined });

/** A server where a declines, then b and c follow on their own; `b` may refuse the consent as changed. */
function server(opts: { bRefuses?: boolean } = {}) {
  const calls: { path: string; body: Record<string, unknown> | null }[] = [];
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const path = new URL(url, 'http://x').pathname.replace('/api/v1', '');
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : null;
    calls.push({ path, body });
    if (path.startsWith('/apply/start/')) return json({ providerKey: 'a', applyMode: 'prequalify', fields: [], fieldGroupRules: [], lenders: [] });
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
  flow.set({ session: { webSessionId: 's1' } as Session, providerKey: 'a', primaryLenderKey: 'a', applyMode: 'prequalify' });
  withCatalogue([lender('a', 'A'), lender('b', 'B'), lender('c', 'C')]);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** The patient was shown these lenders' documents and agreed to them. */
function shownAndAgreed(...lenders: string[]) {
  for (const p of lenders) {
    const d = doc(p);
    flow.set({ documents: { ...flow.get().documents, [`${p}:prequalification`]: d } });
    agree(p, 'prequalification', d);
  }
}

describe('consent in the cascade', () => {
  it('sends each lender the consent for exactly the document the patient was shown', async () => {
    const calls = server();
    shownAndAgreed('a', 'b', 'c');
    const to = await submitDecision('prequalify', submitDeps);
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
    const to = await submitDecision('prequalify', submitDeps);
    expect(to).toBe('/providers/c/prequalifyAgree');
    expect(calls.some((c) => c.path === '/providers/c/prequalify' || c.path.includes('disclosures'))).toBe(false);
    expect(flow.get().providerKey).toBe('c');
    expect(flow.get().consents['c:prequalification']).toBeUndefined();
    expect(flow.get().notice).toContain('couldn’t approve this application');
  });

  it('a consent the server refuses (the document changed) is forgotten and the patient asked again', async () => {
    server({ bRefuses: true });
    shownAndAgreed('a', 'b', 'c');
    const to = await submitDecision('prequalify', submitDeps);
    expect(to).toBe('/providers/b/prequalifyAgree');
    expect(flow.get().consents['b:prequalification']).toBeUndefined();
    expect(flow.get().documents['b:prequalification']).toBeUndefined();
  });

  it('without the current lender’s consent nothing is sent: the patient goes to its agree screen', async () => {
    const calls = server();
    expect(await submitDecision('prequalify', submitDeps)).toBe('/providers/a/prequalifyAgree');
    expect(calls).toEqual([]);
  });

  it('a consent that no longer matches the document shown is not sent', async () => {
    const calls = server();
    shownAndAgreed('a', 'b');
    flow.set({ documents: { ...flow.get().documents, 'b:prequalification': doc('b', 'other') } });
    expect(await submitDecision('prequalify', submitDeps)).toBe('/providers/b/prequalifyAgree');
    expect(calls.some((c) => c.path === '/providers/b/prequalify')).toBe(false);
  });
});

describe('the waiting words while a lender decides', () => {
  it('name the lender asked now and what happens if it does not answer: the next lender, then the patient’s options', async () => {
    const said: [string | null, string | null][] = [];
    const calls = server();
    const api = vi.mocked(fetch);
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string, init?: RequestInit) => {
        if (String(url).endsWith('/prequalify')) said.push([flow.get().progress, flow.get().progressDetail]);
        return api(url, init);
      }),
    );
    flow.set({
      waterfall: [
        { providerKey: 'a', role: 'primary', applyMode: 'prequalify', autoSubmit: false },
        { providerKey: 'b', role: 'secondary', applyMode: 'prequalify', autoSubmit: true },
        { providerKey: 'c', role: 'tertiary', applyMode: 'prequalify', autoSubmit: true },
      ],
    });
    shownAndAgreed('a', 'b', 'c');
    await submitDecision('prequalify', submitDeps);
    expect(calls.filter((c) => c.path.endsWith('/prequalify'))).toHaveLength(3);
    expect(said).toEqual([
      ['Checking your options with A…', 'If A doesn’t answer, we’ll ask B next.'],
      ['Checking your options with B…', 'If B doesn’t answer, we’ll ask C next.'],
      ['Checking your options with C…', 'If C doesn’t answer, we’ll show you your options.'],
    ]);
    expect(flow.get().progressDetail).toBeNull();
  });
});

describe('the cascade asked by the server', () => {
  it('sends the later lenders with the first submit, keeps every answer, and names each lender as the server asks it', async () => {
    vi.useFakeTimers();
    flow.set({
      waterfall: [
        { providerKey: 'a', role: 'primary', applyMode: 'prequalify', autoSubmit: false },
        { providerKey: 'b', role: 'secondary', applyMode: 'prequalify', autoSubmit: true },
        { providerKey: 'c', role: 'tertiary', applyMode: 'prequalify', autoSubmit: true },
      ],
    });
    shownAndAgreed('a', 'b', 'c');
    const submits: Record<string, unknown>[] = [];
    let polls = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        const path = apiPath(url);
        if (path === '/application/progress') return json({ asking: ++polls < 2 ? 'b' : 'c', answered: [] });
        if (path.endsWith('/prequalify')) {
          submits.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
          // The server asks a, then b and c, before it answers.
          await new Promise((r) => setTimeout(r, 2_000));
          return json({ ...decision('a', 'declined', 'b'), cascaded: [decision('b', 'declined', 'c'), decision('c', 'approved')] });
        }
        return json({ code: 'resource_not_found' }, 404);
      }),
    );
    const done = submitDecision('prequalify', submitDeps);
    await vi.advanceTimersByTimeAsync(750);
    expect([flow.get().progress, flow.get().progressDetail]).toEqual(['Checking your options with B…', 'If B doesn’t answer, we’ll ask C next.']);
    await vi.advanceTimersByTimeAsync(700);
    expect([flow.get().progress, flow.get().progressDetail]).toEqual([
      'Checking your options with C…',
      'If C doesn’t answer, we’ll show you your options.',
    ]);
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(done).resolves.toBe('/providers/c/approved');
    expect(submits).toHaveLength(1);
    expect((submits[0]!.cascade as { provider: string; request: { consent: unknown } }[]).map((c) => [c.provider, c.request.consent])).toEqual([
      ['b', { documentId: 'doc-b', documentVersion: '1', documentSha256: 'sha-b', agreed: true }],
      ['c', { documentId: 'doc-c', documentVersion: '1', documentSha256: 'sha-c', agreed: true }],
    ]);
    expect(flow.get().declinedBy).toEqual(['a', 'b']);
    expect(flow.get().responses.c?.preAuth?.responseCode).toBe('approved');
    expect(flow.get().providerKey).toBe('c');
  });

  it('sends no lender whose document the patient was not shown: the cascade stops there as before', async () => {
    const calls = server();
    flow.set({
      waterfall: [
        { providerKey: 'a', role: 'primary', applyMode: 'prequalify', autoSubmit: false },
        { providerKey: 'b', role: 'secondary', applyMode: 'prequalify', autoSubmit: true },
        { providerKey: 'c', role: 'tertiary', applyMode: 'prequalify', autoSubmit: true },
      ],
    });
    shownAndAgreed('a', 'b');
    await submitDecision('prequalify', submitDeps);
    const first = calls.find((c) => c.path === '/providers/a/prequalify')!;
    expect((first.body?.cascade as { provider: string }[]).map((c) => c.provider)).toEqual(['b']);
  });
});

describe('a lender step still in flight', () => {
  it('keeps the waiting words and asks again after Retry-After with the same body: one result', async () => {
    vi.useFakeTimers();
    shownAndAgreed('a');
    const calls = routes({ '/providers/a/prequalify': [inFlight(4), json(decision('a', 'declined'))] });
    const done = submitDecision('prequalify', submitDeps);
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
    routes({
      '/apply/start/providers/a': [json({ providerKey: 'a', applyMode: 'prequalify', fields: [], fieldGroupRules: [], lenders: [] })],
      '/providers/a/prequalify': [() => inFlight(15)],
    });
    const caught = submitDecision('prequalify', submitDeps).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(150_000);
    expect(await caught).toMatchObject({ code: 'in_flight', stillWorking: true, providerKey: 'a' });
    expect(navigate).not.toHaveBeenCalled();
  });
});

describe('whole numbers are never sent as something else', () => {
  const withFields = withMonthsField;

  it('"2.5" months: nothing is sent, the field is shown with the server’s words', async () => {
    const calls = server();
    shownAndAgreed('a');
    withFields();
    flow.set({ primary: { monthsEmployed: '2.5' } });
    expect(submitDeps.body('a', 'prequalify')).toEqual({ primary: {}, jointEnabled: false });
    await expect(submitDecision('prequalify', submitDeps)).resolves.toBe('/providers/a/correctErrors?applicantType=primary');
    expect(calls.some((c) => c.path.endsWith('/prequalify'))).toBe(false);
    expect(flow.get().validation?.fieldErrors).toEqual([{ field: 'primary.monthsEmployed', message: 'Please enter a whole number.' }]);
    expect(flow.get().validation?.resubmitRoute).toBe('/providers/a/prequalifySubmit');
  });
});

describe('the treatment amount a patient at home enters', () => {
  const amount: FieldDefinition = {
    id: 'purchaseAmountCents',
    path: 'purchaseAmountCents',
    name: 'purchaseAmountCents',
    label: 'Treatment amount',
    type: 'currency',
    group: 'purchase',
    rules: { required: {}, min: { min: 100 }, max: { max: 10_000_000 } },
  };
  const form = (fields: FieldDefinition[]) => json({ providerKey: 'a', applyMode: 'prequalify', fields, fieldGroupRules: [], lenders: [] });

  it('is sent once, becomes the session’s amount, and the plans are priced for it when it is below the approval', async () => {
    shownAndAgreed('a', 'b');
    flow.fieldsLoaded('a:prequalify', { providerKey: 'a', applyMode: 'prequalify', fields: [amount], fieldGroupRules: [], lenders: [] } as never);
    flow.set({ primary: { purchaseAmountCents: '3,200' } });
    const calls = routes({
      '/apply/start/providers/b': [form([])],
      '/providers/a/prequalify': [json(decision('a', 'declined', 'b'))],
      '/providers/b/prequalify': [json(decisionOf('b', 'prequalified', { approvedAmountCents: 500_000 }))],
      '/providers/b/payment/plans': [json({ paymentPlans: [] })],
    });
    await expect(submitDecision('prequalify', submitDeps)).resolves.toBe('/providers/b/prequalified');
    const body = (path: string) => JSON.parse(calls.find((c) => c.path === path)!.body!) as Record<string, unknown>;
    expect(body('/providers/a/prequalify').purchaseAmountCents).toBe(320_000);
    expect(body('/providers/a/prequalify').primary).toEqual({});
    expect(body('/providers/b/prequalify')).not.toHaveProperty('purchaseAmountCents');
    expect(flow.get().purchaseAmountCents).toBe(320_000);
    expect(body('/providers/b/payment/plans')).toEqual({ amountCents: 320_000, purchaseAmountCents: 320_000 });
  });

  it('an office’s amount is never sent, whatever the form held', () => {
    flow.fieldsLoaded('a:prequalify', { providerKey: 'a', applyMode: 'prequalify', fields: [amount], fieldGroupRules: [], lenders: [] } as never);
    flow.set({ purchaseAmountCents: 450_000, primary: { purchaseAmountCents: '100' } });
    expect(submitDeps.body('a', 'prequalify')).toEqual({ primary: {}, jointEnabled: false });
  });
});

describe('plans at pre-authorisation (catalogue fetchPaymentPlansOnPreAuth)', () => {
  it('a lender with the flag false (Snap) gets no plans call at pre-authorisation; one with it true does', async () => {
    withCatalogue([lender('a', 'A', { fetchPaymentPlansOnPreAuth: false }), lender('b', 'B')]);
    flow.set({ purchaseAmountCents: 450_000 });
    shownAndAgreed('a');
    let calls = routes({
      '/providers/a/prequalify': [json(decisionOf('a', 'prequalified', { approvedAmountCents: 500_000 }))],
      '/providers/a/payment/plans': [json({ paymentPlans: [] })],
    });
    await expect(submitDecision('prequalify', submitDeps)).resolves.toBe('/providers/a/prequalified');
    expect(calls.map((c) => c.path)).not.toContain('/providers/a/payment/plans');
    expect(flow.get().responses.a?.paymentPlans).toBeUndefined();

    flow.set({ providerKey: 'b', primaryLenderKey: 'b', responses: {} });
    shownAndAgreed('b');
    calls = routes({
      '/providers/b/prequalify': [json(decisionOf('b', 'prequalified', { approvedAmountCents: 500_000 }))],
      '/providers/b/payment/plans': [json({ paymentPlans: [] })],
    });
    await expect(submitDecision('prequalify', submitDeps)).resolves.toBe('/providers/b/prequalified');
    expect(calls.map((c) => c.path)).toContain('/providers/b/payment/plans');
  });
});
