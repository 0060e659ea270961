import { useEffect, useState } from 'react';

/**
 * useAfterPaint answers true once the screen shown when `ready` became true
 * has been painted, and stays true: for code to fetch only after that screen
 * is up, so it does not compete with it (Shell.tsx, the time-out).
 */
export function useAfterPaint(ready: boolean): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    if (!ready || painted) return;
    // A frame's callback runs before it is painted; the next frame's, once it has been painted and shown.
    let frame = requestAnimationFrame(() => (frame = requestAnimationFrame(() => setPainted(true))));
    return () => cancelAnimationFrame(frame);
  }, [ready, painted]);
  return painted;
}
