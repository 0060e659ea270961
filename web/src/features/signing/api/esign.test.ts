import { describe, expect, it, vi } from 'vitest';
import { flow } from '@/stores/flow';
import { withLiveSession } from '@/test/fixtures';
import { json, routes } from '@/test/fetch';
import { esignAndComplete } from './esign';

withLiveSession();

describe('signing', () => {
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
