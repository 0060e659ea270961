import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionTimer, timersAllowed } from './timeout';

describe('session timer', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const make = (over: Partial<ConstructorParameters<typeof SessionTimer>[0]> = {}) => {
    const calls = { warn: 0, expire: 0, hide: 0, ticks: [] as number[] };
    const t = new SessionTimer({
      timeoutMs: 600_000,
      countdownMs: 30_000,
      onWarn: () => calls.warn++,
      onExpire: () => calls.expire++,
      onHide: () => calls.hide++,
      onTick: (ms) => calls.ticks.push(ms),
      ...over,
    });
    return { t, calls };
  };

  it('warns after the inactivity time, then expires after the 30 s countdown', () => {
    const { t, calls } = make();
    t.start();
    vi.advanceTimersByTime(599_999);
    expect(calls.warn).toBe(0);
    vi.advanceTimersByTime(1);
    expect(calls.warn).toBe(1);
    expect(t.phase).toBe('warning');
    vi.advanceTimersByTime(29_000);
    expect(calls.expire).toBe(0);
    vi.advanceTimersByTime(1_000);
    expect(calls.expire).toBe(1);
    expect(t.phase).toBe('expired');
    expect(calls.ticks[0]).toBe(30_000);
  });

  it('Yes (reset) hides the warning and starts over', () => {
    const { t, calls } = make();
    t.start();
    vi.advanceTimersByTime(600_000);
    t.reset();
    expect(calls.hide).toBe(1);
    vi.advanceTimersByTime(60_000);
    expect(calls.expire).toBe(0);
    vi.advanceTimersByTime(540_000);
    expect(calls.warn).toBe(2);
  });

  it('activity is debounced 500 ms and resets the timer', () => {
    const { t, calls } = make();
    t.start();
    vi.advanceTimersByTime(599_000);
    t.activity();
    vi.advanceTimersByTime(400);
    t.activity(); // restarts the debounce
    vi.advanceTimersByTime(499);
    expect(calls.warn).toBe(0);
    vi.advanceTimersByTime(1); // debounce fires at 599_900 + 500 → reset
    vi.advanceTimersByTime(599_000);
    expect(calls.warn).toBe(0);
    vi.advanceTimersByTime(1_000);
    expect(calls.warn).toBe(1);
  });

  it('activity during the warning hides it again', () => {
    const { t, calls } = make();
    t.start();
    vi.advanceTimersByTime(600_000);
    t.activity();
    vi.advanceTimersByTime(500);
    expect(calls.hide).toBe(1);
    expect(t.phase).toBe('running');
    vi.advanceTimersByTime(30_000);
    expect(calls.expire).toBe(0);
  });

  it('a minimum raises the inactivity time; a temporary time overrides it', () => {
    const { t, calls } = make({ timeoutMs: 1_000 });
    t.start();
    t.setMinimum(300_000);
    vi.advanceTimersByTime(299_999);
    expect(calls.warn).toBe(0);
    vi.advanceTimersByTime(1);
    expect(calls.warn).toBe(1);
    const b = make({ timeoutMs: 600_000 });
    b.t.start();
    b.t.setTemporary(5_000);
    vi.advanceTimersByTime(5_000);
    expect(b.calls.warn).toBe(1);
  });

  it('stop cancels everything', () => {
    const { t, calls } = make();
    t.start();
    t.activity();
    t.stop();
    vi.advanceTimersByTime(2_000_000);
    expect(calls.warn + calls.expire).toBe(0);
  });

  it('uses the defaults when the session gives none', () => {
    const { t, calls } = make({ timeoutMs: 0, countdownMs: 0 });
    t.start();
    vi.advanceTimersByTime(600_000);
    expect(calls.warn).toBe(1);
    vi.advanceTimersByTime(30_000);
    expect(calls.expire).toBe(1);
  });

  it('sets no timers on /finish or /idle', () => {
    expect(timersAllowed('/finish')).toBe(false);
    expect(timersAllowed('/finish/timeout')).toBe(false);
    expect(timersAllowed('/idle')).toBe(false);
    expect(timersAllowed('/providers/x/paymentPlans')).toBe(true);
    expect(timersAllowed('/idler')).toBe(true);
  });
});
