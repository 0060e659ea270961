import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { submitDecision } from '@/features/results/api/submit';
import { configureApi } from '@/lib/api/client';
import type { Decision, Document, Session } from '@/lib/api/types';
import { configureClientLog } from '@/lib/clientLog';
import { agree } from '@/lib/consent/documents';
import { flow } from '@/stores/flow';
import { lender, withCatalogue } from '@/test/catalogue';
import { json, routes, type Call } from '@/test/fetch';
import { decision } from '@/test/fixtures';
import { submitDeps } from './submissions';

/*
 * The submit answers the destination of docs/behaviour.md, "Decision
 * routing", for the lender that answered, with its overrides; an answer it
 * does not know is reported and leads to the general error page.
 */

const LC = 'lendingclub_standard';

function start(answer: Decision): Call[] {
  const calls = routes({
    [`/apply/start/providers/${LC}`]: [json({ providerKey: LC, applyMode: 'prequalify', fields: [], fieldGroupRules: [], lenders: [] })],
    [`/providers/${LC}/prequalify`]: [json(answer)],
    [`/providers/${LC}/payment/plans`]: [json({ paymentPlans: [] })],
    '/log': [new Response(null, { status: 204 })],
  });
  const d: Document = {
    id: 'doc-lc',
    version: '1',
    title: 'LendingClub terms',
    contentType: 'text/plain',
    content: 'x',
    language: 'en',
    sha256: 'sha-lc',
  };
  flow.set({ documents: { [`${LC}:prequalification`]: d } });
  agree(LC, 'prequalification', d);
  return calls;
}

beforeEach(() => {
  configureApi({ getSessionId: () => 's1', navigate: vi.fn(), onValidation: vi.fn(), currentPath: () => '/p' });
  configureClientLog({ getSessionId: () => 's1', currentRoute: () => '/providers/:providerKey/prequalifySubmit' });
  flow.reset();
  flow.set({ session: { webSessionId: 's1' } as Session, providerKey: LC, primaryLenderKey: LC, applyMode: 'prequalify' });
  withCatalogue([lender(LC, 'LendingClub')]);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('submitDecision routes with the lender overrides', () => {
  it('LendingClub pending for an email to confirm → approved, not the no-offer or declined screen', async () => {
    start(decision(LC, 'pending', { pendingReasons: ['verify_email'] }));
    expect(await submitDecision('prequalify', submitDeps)).toBe(`/providers/${LC}/approved`);
  });

  it('LendingClub pending for anything else → true-pending', async () => {
    start(decision(LC, 'pending', { pendingReasons: ['identity_verification'] }));
    expect(await submitDecision('prequalify', submitDeps)).toBe(`/providers/${LC}/true-pending`);
  });

  it('LendingClub prequalified with an expiry already past → expired', async () => {
    start(decision(LC, 'prequalified', { approvedAmountCents: 500_000, expiresAt: '2020-01-01T00:00:00Z' }));
    expect(await submitDecision('prequalify', submitDeps)).toBe(`/providers/${LC}/expired`);
  });

  it('no answer from a lender whose office offers a standard application → declined, which says not to apply again; never the no-offer screen', async () => {
    withCatalogue([lender(LC, 'LendingClub', { supportsFullAppMode: true })]);
    start(decision(LC, 'error'));
    expect(await submitDecision('prequalify', submitDeps)).toBe(`/providers/${LC}/declined`);
  });

  it('no offer, every lender answered → the no-offer screen and its standard application', async () => {
    withCatalogue([lender(LC, 'LendingClub', { supportsFullAppMode: true })]);
    start(decision(LC, 'nooffer'));
    expect(await submitDecision('prequalify', submitDeps)).toBe(`/providers/${LC}/nooffer`);
  });

  it('a code nobody knows is reported to the server and leads to the general error page', async () => {
    const calls = start(decision(LC, 'under_consideration' as Decision['responseCode']));
    expect(await submitDecision('prequalify', submitDeps)).toBe('/error?code=unknown_response');
    await vi.waitFor(() => {
      const logs = calls.filter((c) => c.path === '/log');
      expect(logs).toHaveLength(1);
      expect(JSON.parse(logs[0]!.body!)).toMatchObject({ code: 'decision.unknown_response', level: 'warn' });
    });
  });
});

describe('details changed after the lender answered (Back, a change, then the same button)', () => {
  function twice(second: Response): ReturnType<typeof vi.fn> {
    const navigate = vi.fn();
    configureApi({ getSessionId: () => 's1', navigate, onValidation: vi.fn(), currentPath: () => '/p' });
    start(decision(LC, 'prequalified', { approvedAmountCents: 500_000 }));
    routes({
      [`/apply/start/providers/${LC}`]: [json({ providerKey: LC, applyMode: 'prequalify', fields: [], fieldGroupRules: [], lenders: [] })],
      [`/providers/${LC}/prequalify`]: [json(decision(LC, 'prequalified', { approvedAmountCents: 500_000 })), second],
      [`/providers/${LC}/payment/plans`]: [json({ paymentPlans: [] })],
    });
    return navigate;
  }

  it('shows the answer the patient already has and says the changes were not sent; no error page', async () => {
    const navigate = twice(json({ code: 'idempotency_mismatch', message: 'Already decided.' }, 422));
    expect(await submitDecision('prequalify', submitDeps)).toBe(`/providers/${LC}/prequalified`);
    // Before: the error page (idempotency_mismatch), and the offer gone for the patient.
    expect(await submitDecision('prequalify', submitDeps)).toBe(`/providers/${LC}/prequalified`);
    expect(navigate).not.toHaveBeenCalled();
    expect(flow.get().notice).toBe(
      'LendingClub has already answered the application you sent, so the details you changed were not sent. This is LendingClub’s answer.',
    );
  });

  it('any other refusal still goes to the error page', async () => {
    const navigate = twice(json({ code: 'conflict', message: 'No.' }, 409));
    await submitDecision('prequalify', submitDeps);
    await expect(submitDecision('prequalify', submitDeps)).rejects.toMatchObject({ code: 'conflict' });
    expect(navigate).toHaveBeenCalledWith('/error?code=conflict', true);
  });
});
