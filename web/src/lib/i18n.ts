import i18next from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import type { Catalogue } from '@/locales/en';
import shell from '@/locales/en/shell';

/*
 * The patient's language (docs/languages.md). The English of the shell and
 * the first screen ships with the first route, the rest of the journey's
 * with the first screen that needs it (loadJourneyMessages); Spanish loads
 * whole when it is first chosen, so an English visit never downloads it. The choice is, in order: what the patient picked in this
 * tab's session, the office's default language, the browser's languages,
 * then English. Every API call says it (Accept-Language, lib/api/client.ts),
 * so the server answers its messages in the same language, and <html lang>
 * follows it so screen readers speak it with the right voice.
 */

export const LANGUAGES = ['en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The name of each language in itself, as the switch shows it. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', es: 'Español' };

/** Where the patient's own choice is kept: this tab only, forgotten when the application finishes. */
const CHOICE_KEY = 'chairside.language';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: Catalogue };
  }
}

const loaders: Record<Language, () => Promise<object>> = {
  en: () => Promise.resolve(shell),
  es: () => import('@/locales/es').then((m) => m.default),
};

/** Whether a screen asked for the journey's English (so a switch back to English loads it too). */
let journeyWanted = false;
let journeyLoaded: Promise<void> | null = null;

/**
 * loadJourneyMessages loads the English of the journey's screens after the
 * first, once; each lazy screen waits for it beside its own code, so it
 * costs no round trip of its own.
 */
export function loadJourneyMessages(): Promise<void> {
  journeyWanted = true;
  journeyLoaded ??= import('@/locales/en/journey').then((m) => {
    i18next.addResourceBundle('en', 'translation', m.default, true, true);
  });
  return journeyLoaded;
}

void i18next.use(initReactI18next).init({
  lng: 'en',
  fallbackLng: 'en',
  supportedLngs: [...LANGUAGES],
  resources: { en: { translation: shell } },
  // React escapes what it renders; escaping here too would show "&amp;".
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
  react: { useSuspense: false },
});

export const i18n = i18next;

/** isLanguage narrows a string ("es", "es-MX", "ES") to a language we have, by its primary tag. */
export function asLanguage(tag: string | null | undefined): Language | null {
  const primary = (tag ?? '').trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return (LANGUAGES as readonly string[]).includes(primary) ? (primary as Language) : null;
}

/**
 * The language last asked for: a switch loads its messages before it shows,
 * but a call sent meanwhile (the application's fields, fetched as its
 * screen opens) already asks for the new language.
 */
let wanted: Language | null = null;

/** requestLanguage is the language API calls ask for (Accept-Language). */
export function requestLanguage(): Language {
  return wanted ?? currentLanguage();
}

/** currentLanguage is the language the app speaks now. */
export function currentLanguage(): Language {
  return asLanguage(i18next.language) ?? 'en';
}

/** locale is the BCP 47 locale Intl formats money, numbers and dates with: US conventions in either language. */
export function locale(lng: Language = currentLanguage()): string {
  return lng === 'es' ? 'es-US' : 'en-US';
}

function storedChoice(): Language | null {
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

/** preferredLanguage answers the language to speak: the patient's choice, the office's default, the browser's, English. */
export function preferredLanguage(officeDefault?: string | null): Language {
  return storedChoice() ?? asLanguage(officeDefault) ?? browserLanguage() ?? 'en';
}

/** hasChosenLanguage says whether the patient picked a language in this session (an office default then does not override it). */
export function hasChosenLanguage(): boolean {
  return storedChoice() !== null;
}

/**
 * setLanguage loads the language's messages if needed and switches to it;
 * remember keeps it as the patient's own choice for the rest of the session.
 */
export async function setLanguage(lng: Language, opts: { remember?: boolean } = {}): Promise<void> {
  wanted = lng;
  if (!i18next.hasResourceBundle(lng, 'translation')) {
    i18next.addResourceBundle(lng, 'translation', await loaders[lng]());
  }
  if (lng === 'en' && journeyWanted) await loadJourneyMessages();
  if (opts.remember) {
    try {
      sessionStorage.setItem(CHOICE_KEY, lng);
    } catch {
      // Private modes may refuse storage: the choice then lasts until the page reloads.
    }
  }
  if (i18next.language !== lng) await i18next.changeLanguage(lng);
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
}

/** forgetLanguageChoice drops the patient's choice when the application ends, so the next patient starts afresh. */
export function forgetLanguageChoice(): void {
  try {
    sessionStorage.removeItem(CHOICE_KEY);
  } catch {
    // Nothing kept, nothing to forget.
  }
}

/** useT answers the translation function; the component renders again when the language changes. */
export function useT() {
  return useTranslation().t;
}

/** t translates outside React (plain functions, error boundaries). */
export const t = i18next.t.bind(i18next);
