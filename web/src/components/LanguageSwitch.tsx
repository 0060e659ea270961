import { LANGUAGE_NAMES, setLanguage, useLanguage, type Language } from '@/lib/i18n';

/**
 * LanguageSwitch offers the other language by its own name ("Español" on an
 * English screen, "English" on a Spanish one), on every screen of the
 * patient's journey. Its text carries its own lang, so a screen reader says
 * "Español" with a Spanish voice. What the patient typed stays: the screen
 * only renders again in the new language.
 */
export function LanguageSwitch() {
  const other: Language = useLanguage() === 'es' ? 'en' : 'es';
  return (
    <button type="button" className="icon-btn lang-switch" lang={other} onClick={() => void setLanguage(other, { remember: true })}>
      {LANGUAGE_NAMES[other]}
    </button>
  );
}
