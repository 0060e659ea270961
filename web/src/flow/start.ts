import type { ApplyMode, StartFlowResponse } from '@/lib/api/types';
import { providerRoute } from '@/lib/paths';
import { flow } from '@/stores/flow';
import { hasChosenLanguage, preferredLanguage, setLanguage } from '@/lib/i18n';

/**
 * enterSession keeps a session the server just started (from a link, a QR
 * code or "start again") and answers where it begins: the first lender's
 * start route, in the office's first apply mode. An office with a default
 * language speaks it unless the patient already chose one (docs/languages.md).
 */
export function enterSession(res: StartFlowResponse): string {
  if (!hasChosenLanguage()) void setLanguage(preferredLanguage(res.location?.language));
  const mode: ApplyMode = res.session.properties?.applyMode ?? 'prequalify';
  flow.started(res, mode);
  return providerRoute(res.session.dynamicProviderKey, `modes/${mode}/start`);
}
