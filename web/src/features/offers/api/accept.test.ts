import { describe, expect, it, vi } from 'vitest';
import type { PaymentPlan } from '@/lib/api/types';
import { withLiveSession } from '@/test/fixtures';
import { inFlight, json, routes } from '@/test/fetch';
import { acceptOffer } from './accept';

withLiveSession();

describe('accepting an offer', () => {
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
});
