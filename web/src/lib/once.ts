/** Promises of calls in flight, so a double tap or a re-render never sends the same thing twice. */
const inFlight = new Map<string, Promise<unknown>>();

/** once runs fn for a key unless a run for that key is still going, in which case it answers that run's promise. */
export function once<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const running = inFlight.get(key);
  if (running) return running as Promise<T>;
  const p = fn().finally(() => inFlight.delete(key));
  inFlight.set(key, p);
  return p;
}
