// @vitest-environment happy-dom
// It sets <html lang> and reads the browser's languages: it needs a document.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { asLanguage, currentLanguage, forgetLanguageChoice, hasChosenLanguage, locale, preferredLanguage, setLanguage, t } from './i18n';

/* Choosing the patient's language (docs/languages.md, "Choosing the language"). */

function browserSpeaks(...languages: string[]) {
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(languages);
  vi.spyOn(navigator, 'language', 'get').mockReturnValue(languages[0] ?? '');
}

afterEach(() => vi.restoreAllMocks());

describe('the language', () => {
  // First in this file, so Spanish has not loaded yet when it is asked for.
  it('is the last one asked for, when an earlier switch is still loading its messages', async () => {
    const spanish = setLanguage('es');
    await setLanguage('en');
    await spanish;
    expect(currentLanguage()).toBe('en');
    expect(t('common.actions.continue')).toBe('Continue');
    await setLanguage('es');
    expect(currentLanguage()).toBe('es');
  });

  it('reads a tag by its primary subtag, and only the languages we speak', () => {
    expect(asLanguage('es-MX')).toBe('es');
    expect(asLanguage('EN_us')).toBe('en');
    expect(asLanguage('fr')).toBeNull();
    expect(asLanguage(undefined)).toBeNull();
  });

  it('is the patient’s choice, else the office’s default, else the browser’s, else English', async () => {
    browserSpeaks('fr-FR', 'es-419', 'en');
    expect(preferredLanguage()).toBe('es');
    expect(preferredLanguage('en')).toBe('en');
    browserSpeaks('de');
    expect(preferredLanguage()).toBe('en');
    expect(preferredLanguage('es')).toBe('es');
    expect(preferredLanguage('xx')).toBe('en');

    await setLanguage('es', { remember: true });
    expect(hasChosenLanguage()).toBe(true);
    expect(preferredLanguage('en')).toBe('es');
    forgetLanguageChoice();
    expect(hasChosenLanguage()).toBe(false);
    expect(preferredLanguage('en')).toBe('en');
  });

  it('switching sets <html lang>, the messages and the formats', async () => {
    await setLanguage('es');
    expect(document.documentElement.lang).toBe('es');
    expect(currentLanguage()).toBe('es');
    expect(locale()).toBe('es-US');
    expect(t('common.shell.help')).toBe('Ayuda');
    expect(hasChosenLanguage()).toBe(false); // not remembered unless the patient chose it
    await setLanguage('en');
    expect(document.documentElement.lang).toBe('en');
    expect(t('common.shell.help')).toBe('Help');
  });
});

describe('calls during a switch', () => {
  it('ask for the new language at once, before its messages have loaded', async () => {
    const { requestLanguage } = await import('./i18n');
    const switching = setLanguage('es');
    expect(requestLanguage()).toBe('es');
    await switching;
    expect(currentLanguage()).toBe('es');
  });
});
