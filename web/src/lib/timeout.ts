/** Session time-out logic (docs/behaviour.md, "Time-outs"), free of React so it can be tested with fake timers. */

export const DEFAULT_TIMEOUT_MS = 600_000;
export const DEFAULT_COUNTDOWN_MS = 30_000;
export const ACTIVITY_DEBOUNCE_MS = 500;
export const SUBMIT_MINIMUM_MS = 300_000;

export type TimerPhase = 'stopped' | 'running' | 'warning' | 'expired';

export interface SessionTimerOptions {
  timeoutMs?: number;
  countdownMs?: number;
  debounceMs?: number;
  /** Called when the warning modal should appear. */
  onWarn: () => void;
  /** Called every second of the countdown with the milliseconds left. */
  onTick?: (remainingMs: number) => void;
  /** Called when the warning is withdrawn (Yes or activity). */
  onHide?: () => void;
  /** Called when the countdown ends. */
  onExpire: () => void;
}

export class SessionTimer {
  private opts: Required<Omit<SessionTimerOptions, 'onTick' | 'onHide'>> & Pick<SessionTimerOptions, 'onTick' | 'onHide'>;
  private idle?: ReturnType<typeof setTimeout>;
  private tick?: ReturnType<typeof setInterval>;
  private debounce?: ReturnType<typeof setTimeout>;
  private temporaryMs: number | null = null;
  private minimumMs = 0;
  private deadline = 0;
  phase: TimerPhase = 'stopped';

  constructor(opts: SessionTimerOptions) {
    this.opts = {
      timeoutMs: opts.timeoutMs && opts.timeoutMs > 0 ? opts.timeoutMs : DEFAULT_TIMEOUT_MS,
      countdownMs: opts.countdownMs && opts.countdownMs > 0 ? opts.countdownMs : DEFAULT_COUNTDOWN_MS,
      debounceMs: opts.debounceMs ?? ACTIVITY_DEBOUNCE_MS,
      onWarn: opts.onWarn,
      onExpire: opts.onExpire,
      onTick: opts.onTick,
      onHide: opts.onHide,
    };
  }

  /** The inactivity time in force: a temporary override, never below the minimum. */
  get effectiveTimeoutMs(): number {
    return Math.max(this.temporaryMs ?? this.opts.timeoutMs, this.minimumMs);
  }

  start(): void {
    this.clearTimers();
    const wasWarning = this.phase === 'warning';
    this.phase = 'running';
    if (wasWarning) this.opts.onHide?.();
    this.idle = setTimeout(() => this.warn(), this.effectiveTimeoutMs);
  }

  /** reset is what "Yes" does: hide the warning and start over. */
  reset(): void {
    this.start();
  }

  /** activity is a click or key press; debounced, it resets the timer. */
  activity(): void {
    if (this.phase === 'stopped' || this.phase === 'expired') return;
    if (this.debounce) clearTimeout(this.debounce);
    this.debounce = setTimeout(() => {
      this.debounce = undefined;
      if (this.phase === 'running' || this.phase === 'warning') this.start();
    }, this.opts.debounceMs);
  }

  setTemporary(ms: number | null): void {
    this.temporaryMs = ms;
    if (this.phase === 'running') this.start();
  }

  setMinimum(ms: number): void {
    this.minimumMs = ms;
    if (this.phase === 'running') this.start();
  }

  stop(): void {
    this.clearTimers();
    if (this.debounce) clearTimeout(this.debounce);
    this.debounce = undefined;
    this.phase = 'stopped';
  }

  private warn(): void {
    this.phase = 'warning';
    this.deadline = Date.now() + this.opts.countdownMs;
    this.opts.onWarn();
    this.opts.onTick?.(this.opts.countdownMs);
    this.tick = setInterval(() => {
      const left = Math.max(0, this.deadline - Date.now());
      this.opts.onTick?.(left);
      if (left <= 0) this.expire();
    }, 1000);
  }

  private expire(): void {
    this.clearTimers();
    this.phase = 'expired';
    this.opts.onExpire();
  }

  private clearTimers(): void {
    if (this.idle) clearTimeout(this.idle);
    if (this.tick) clearInterval(this.tick);
    this.idle = undefined;
    this.tick = undefined;
  }
}

/** timersAllowed: no session timers on /finish or /idle (docs/behaviour.md, "Time-outs"). */
export function timersAllowed(pathname: string): boolean {
  return !/^\/(finish|idle)(\/|$)/.test(pathname);
}
