import { describe, expect, it, vi } from 'vitest';
import { flow } from '@/stores/flow';
import { withLiveSession } from '@/test/fixtures';
import { json, routes } from '@/test/fetch';
import { esignAndComplete, needsHardPull } from './esign';

withLiveSession();

describe('signing', () => {
  it('e-sign: a dropped connection is retried with exactly the same signature, then the application completes', async () => {
    vi.useFakeTimers();
    const consent = { documentId: 'd', documentVersion: '1', documentSha256: 's', agreed: true as const };
    const consents = {
      consent,
      agreementConsent: { ...consent, documentId: 'agreement' },
      hardPullConsent: { ...consent, documentId: 'application' },
    };
    const png = 'data:image/png;base64,' + 'A'.repeat(4100);
    const calls = routes({
      '/providers/a/application/esign': [new TypeError('Failed to fetch'), json({ status: 'signed' })],
      '/providers/a/application/complete': [json({ status: 'completed' })],
    });
    const done = esignAndComplete({ valid: true, problem: null, png, method: 'drawn' }, consents);
    await vi.advanceTimersByTimeAsync(500);
    expect(flow.get().progress).toBe('Saving your signature…');
    await vi.advanceTimersByTimeAsync(500);
    await expect(done).resolves.toBe('/providers/a/complete');
    const esigns = calls.filter((c) => c.path.endsWith('/esign'));
    expect(esigns).toHaveLength(2);
    expect(esigns[0]!.body).toBe(esigns[1]!.body);
    expect(JSON.parse(esigns[0]!.body!)).toEqual({ ...consents, signaturePng: png });
  });

  it('after a full application no hard-pull authorisation is sent', async () => {
    const consent = { documentId: 'd', documentVersion: '1', documentSha256: 's', agreed: true as const };
    const calls = routes({
      '/providers/a/application/esign': [json({ status: 'signed' })],
      '/providers/a/application/complete': [json({ status: 'completed' })],
    });
    await esignAndComplete(
      { valid: true, problem: null, png: 'data:image/png;base64,AAAA', method: 'drawn' },
      { consent, agreementConsent: consent, hardPullConsent: undefined },
    );
    expect(Object.keys(JSON.parse(calls[0]!.body!) as object).sort()).toEqual(['agreementConsent', 'consent', 'signaturePng']);
  });

  it('a typed signature says so, with the name typed', async () => {
    const consent = { documentId: 'd', documentVersion: '1', documentSha256: 's', agreed: true as const };
    flow.response('a', { signed: false });
    const calls = routes({
      '/providers/a/application/esign': [json({ status: 'signed' })],
      '/providers/a/application/complete': [json({ status: 'completed' })],
    });
    const png = 'data:image/png;base64,' + 'A'.repeat(4100);
    await esignAndComplete(
      { valid: true, problem: null, png, method: 'typed', typedName: 'Maria Approve' },
      { consent, agreementConsent: consent, hardPullConsent: undefined },
    );
    expect(JSON.parse(calls[0]!.body!)).toEqual({
      consent,
      agreementConsent: consent,
      signaturePng: png,
      signatureMethod: 'typed',
      typedName: 'Maria Approve',
    });
  });

  it('asks for the hard pull when the offer came from a soft pull', () => {
    const d = (operation: string, responseCode: string) => ({ providerKey: 'a', operation, responseCode }) as never;
    expect(needsHardPull(undefined)).toBe(true);
    expect(needsHardPull({ preAuth: d('prequalify', 'prequalified') })).toBe(true);
    expect(needsHardPull({ preAuth: d('prescreen', 'preapproved') })).toBe(true);
    expect(needsHardPull({ apply: d('apply', 'approved') })).toBe(false);
    // A quick check without an offer, then an approved full application: authorised before applying.
    expect(needsHardPull({ preAuth: d('prequalify', 'nooffer'), apply: d('apply', 'approved') })).toBe(false);
  });

  it('asks for no hard pull to use an account the patient already has', () => {
    const existing = { providerKey: 'a', operation: 'prequalify', responseCode: 'approved', existingAccount: true } as never;
    expect(needsHardPull({ preAuth: existing })).toBe(false);
  });
});
