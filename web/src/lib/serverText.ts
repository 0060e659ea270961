import { currentLanguage, translateServer, type Language } from './i18n';

/*
 * The server's words in the patient's language (docs/languages.md). The
 * server answers labels, hints and messages in the language of the call;
 * the browser also says the server's validation messages itself, and keeps
 * labels it fetched before the patient switched language. serverText turns
 * any of these into the language shown now (lib/serverWords.ts).
 */

/** serverText answers a label, hint or message of the server's in the given language (the app's by default); unknown text as it is. */
export function serverText(text: string | null | undefined, lng: Language = currentLanguage()): string {
  if (!text) return '';
  return translateServer(text, lng);
}
