import { useEffect } from 'react';
import { t } from '@/lib/i18n';

/**
 * The refresh warning (docs/behaviour.md, "Time-outs"). Browsers show their own words; ours are kept for the record,
 * worded when the page is about to unload, in the language of that moment.
 */
export const refreshWarning = (): string => t('common.refreshWarning');

export function useRefreshWarning(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      const warning = refreshWarning();
      e.returnValue = warning;
      return warning;
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [active]);
}
