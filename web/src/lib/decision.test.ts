import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api/client';
import type { Decision, NextAction } from './api/types';
import { ConsentNeeded, decisionDestination, isPositive, operationMode, runCascade, unansweredIn, type RoutingContext } from './decision';

const full: RoutingContext = { mode: 'full', preAuth: false, primarySupportsFull: true };
const preq: RoutingContext = { mode: 'prequalify', preAuth: true, primarySupportsFull: true };
const preqNoFull: RoutingContext = { mode: 'prequalify', preAuth: true, primarySupportsFull: false };

describe('decision routing table', () => {
  it.each([
    ['approved', full, 'paymentPlans'],
    ['approved', preq, 'approved'],
    ['declined', full, 'declined'],
    ['declined', preq, 'declined'],
    ['error', full, 'error'],
    ['nooffer', full, 'declined'],
    ['nooffer', preqNoFull, 'declined'],
    ['pending', full, 'pending'],
    ['preapproved', preq, 'preapproved'],
    ['prequalified', preq, 'prequalified'],
    ['resume', full, 'resume?from=decision'],
    ['start', preq, 'modes/prequalify/start'],
    ['start', full, 'modes/full/start'],
  ] as const)('%s → %s', (code, ctx, dest) => {
    expect(decisionDestination({ responseCode: code as Decision['responseCode'], existingAccount: false }, ctx)).toBe(dest);
  });

  it('treats error and pending as nooffer during pre-authorisation', () => {
    expect(decisionDestination({ responseCode: 'error', existingAccount: false }, preq)).toBe('nooffer');
    expect(decisionDestination({ responseCode: 'pending', existingAccount: false }, preq)).toBe('nooffer');
    expect(decisionDestination({ responseCode: 'pending', existingAccount: false }, preqNoFull)).toBe('declined');
  });

  it('offers no standard application after a lender we could not reach: no offer goes to declined', () => {
    const unanswered = { ...preq, unanswered: true };
    expect(decisionDestination({ responseCode: 'error', existingAccount: false }, unanswered)).toBe('declined');
    expect(decisionDestination({ responseCode: 'nooffer', existingAccount: false }, unanswered)).toBe('declined');
    expect(unansweredIn({ a: { preAuth: { responseCode: 'nooffer' } }, b: { preAuth: { responseCode: 'error' } } })).toBe(true);
    // A lender asked again in full mode answers for itself.
    expect(unansweredIn({ a: { preAuth: { responseCode: 'error' }, apply: { responseCode: 'declined' } } })).toBe(false);
  });

  it('sends an existing account to existingAccount whatever the code', () => {
    expect(decisionDestination({ responseCode: 'declined', existingAccount: true }, full)).toBe('existingAccount');
  });

  it('answers null for an unknown code', () => {
    expect(decisionDestination({ responseCode: 'banana' as Decision['responseCode'], existingAccount: false }, full)).toBeNull();
  });

  it('knows the positive outcomes', () => {
    expect(['approved', 'preapproved', 'prequalified'].every(isPositive)).toBe(true);
    expect(['declined', 'error', 'nooffer', 'pending'].some(isPositive)).toBe(false);
  });

  it('maps pre-authorisation operations to modes', () => {
    expect(operationMode('apply')).toBe('full');
    expect(operationMode('prescreen')).toBe('prescreen');
    expect(operationMode('accept_offer', 'prescreen')).toBe('prescreen');
  });
});

const d = (providerKey: string, responseCode: Decision['responseCode'], next?: Partial<NextAction>): Decision => ({
  providerKey,
  operation: 'prequalify',
  responseCode,
  approvedAmountCents: responseCode === 'approved' ? 500000 : 0,
  stipulations: [],
  pendingReasons: [],
  downPaymentRequired: false,
  existingAccount: false,
  next: next ? { resultType: 'start', autoSubmit: true, provider: 'b', applyMode: 'prequalify', resume: false, ...next } : undefined,
});

describe('cascade', () => {
  it('stops at the first positive result', async () => {
    const submit = vi.fn(async (n: NextAction) =>
      n.provider === 'b' ? d('b', 'declined', { provider: 'c' }) : d('c', 'prequalified', { provider: 'd' }),
    );
    const r = await runCascade(d('a', 'declined', { provider: 'b' }), submit);
    expect(r.final.providerKey).toBe('c');
    expect(submit).toHaveBeenCalledTimes(2);
  });

  it('uses the latest result when nothing is positive', async () => {
    const r = await runCascade(d('a', 'declined', { provider: 'b' }), async () => d('b', 'nooffer'));
    expect(r.final.providerKey).toBe('b');
    expect(r.chain).toHaveLength(2);
  });

  it('uses the original result when a submit fails', async () => {
    const r = await runCascade(d('a', 'declined', { provider: 'b' }), async () => {
      throw new Error('down');
    });
    expect(r.final.providerKey).toBe('a');
  });

  it('a lender still working on it is not a failure to route on: it is thrown on', async () => {
    const still = new ApiError(409, { code: 'in_flight' });
    still.stillWorking = true;
    await expect(
      runCascade(d('a', 'declined', { provider: 'b' }), async () => {
        throw still;
      }),
    ).rejects.toBe(still);
  });

  it('does not submit a positive first result', async () => {
    const submit = vi.fn();
    const r = await runCascade(d('a', 'approved', { provider: 'b' }), submit);
    expect(r.final.providerKey).toBe('a');
    expect(submit).not.toHaveBeenCalled();
  });

  it('does not resubmit a lender that already decided', async () => {
    const submit = vi.fn();
    const r = await runCascade(d('a', 'error', { provider: 'b', resume: true, resultType: 'resume' }), submit);
    expect(submit).not.toHaveBeenCalled();
    expect(r.final.providerKey).toBe('a');
    expect(r.switchTo).toBeUndefined();
  });

  it('stops where the patient was not shown the next lender’s authorisation', async () => {
    const submit = vi.fn(async (n: NextAction) => {
      if (n.provider === 'c') throw new ConsentNeeded(n);
      return d('b', 'declined', { provider: 'c' });
    });
    const r = await runCascade(d('a', 'declined', { provider: 'b' }), submit);
    expect(submit).toHaveBeenCalledTimes(2);
    expect(r.consentNeeded?.provider).toBe('c');
    expect(r.final.providerKey).toBe('b');
    expect(r.chain.map((x) => x.providerKey)).toEqual(['a', 'b']);
    expect(r.switchTo).toBeUndefined();
  });

  it('switches lender without autoSubmit', async () => {
    const r = await runCascade(d('a', 'declined', { provider: 'b', autoSubmit: false, applyMode: 'full' }), vi.fn());
    expect(r.switchTo?.provider).toBe('b');
    expect(r.switchTo?.applyMode).toBe('full');
  });
});
