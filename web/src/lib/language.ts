/*
 * Which language a patient wants, decided without any of the app's code
 * (docs/languages.md): the early start (lib/api/early.ts) asks for it before
 * React has loaded, and the app (lib/i18n.ts) starts in the same one, so the
 * two never disagree.
 */

export const LANGUAGES = ['en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Where the patient's own choice is kept: this tab only, forgotten when the application finishes. */
export const CHOICE_KEY = 'chairside.language';

/** asLanguage narrows a string ("es", "es-MX", "ES") to a language we have, by its primary tag. */
export function asLanguage(tag: string | null | undefined): Language | null {
  const primary = (tag ?? '').trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return (LANGUAGES as readonly string[]).includes(primary) ? (primary as Language) : null;
}

/** storedChoice is the language the patient picked in this tab, if any. */
export function storedChoice(): Language | null {
  try {
    return asLanguage(sessionStorage.getItem(CHOICE_KEY));
  } catch {
    return null;
  }
}

function browserLanguage(): Language | null {
  const tags = typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language];
  for (const tag of tags) {
    const lng = asLanguage(tag);
    if (lng) return lng;
  }
  return null;
}

/** localeOf answers the locale a language's numbers, amounts and dates are written in. */
export function localeOf(lng: Language): string {
  return lng === 'es' ? 'es-US' : 'en-US';
}

/** preferredLanguage answers the language to speak: the patient's choice, the office's default, the browser's, English. */
export function preferredLanguage(officeDefault?: string | null): Language {
  return storedChoice() ?? asLanguage(officeDefault) ?? browserLanguage() ?? 'en';
}
