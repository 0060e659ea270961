import type { ApplyMode, StartFlowResponse } from '@/lib/api/types';
import { lenderRoute } from '@/lib/paths';
import { fieldsKey, flow } from '@/stores/flow';
import { hasChosenLanguage, preferredLanguage, requestLanguage, setLanguage } from '@/lib/i18n';

/**
 * enterSession keeps a session the server just started (from a link, a QR
 * code or "start again") and answers where it begins: the first lender's
 * start route, in the office's first apply mode. An office with a default
 * language speaks it unless the patient already chose one (docs/languages.md).
 * The first lender's form comes with the start, in the language the answer
 * names (the office's own when the patient has not chosen one, else the one
 * the start was asked in): it is kept when that is the language the app now
 * speaks; otherwise the form's screen asks for it again.
 */
export function enterSession(res: StartFlowResponse): string {
  const asked = requestLanguage();
  if (!hasChosenLanguage()) void setLanguage(preferredLanguage(res.location?.language));
  const mode: ApplyMode = res.session.properties?.applyMode ?? 'prequalify';
  flow.started(res, mode);
  if (res.form && requestLanguage() === (res.language ?? asked)) flow.fieldsLoaded(fieldsKey(res.form.providerKey, res.form.applyMode), res.form);
  return lenderRoute(res.session.dynamicProviderKey, `modes/${mode}/start`);
}
