import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApi } from '@/lib/api/client';
import type { Decision, Document, Session } from '@/lib/api/types';
import { flow } from '@/stores/flow';
import { agree, consentNotice, declineMessage, submitDecision } from './commands';

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
afterEach(() => vi.unstubAllGlobals());

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
