import { useEffect } from 'react';

/** The refresh warning (docs/behaviour.md, "Time-outs"). Browsers show their own words; ours are kept for the record. */
export const REFRESH_WARNING =
  'WARNING: Refreshing this page will require you to restart the application process and re-scan the QR code.  Are you sure you want to continue?';

export function useRefreshWarning(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = REFRESH_WARNING;
      return REFRESH_WARNING;
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [active]);
}
