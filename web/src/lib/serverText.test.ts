import { beforeAll, describe, expect, it } from 'vitest';
import { forgetLanguageChoice, loadServerWords, setLanguage } from './i18n';
import { serverText } from './serverText';
import { messages } from './validation';

describe('serverText', () => {
  // The catalogue comes with Spanish: asking for Spanish once is what fetches it.
  beforeAll(async () => {
    await setLanguage('es');
    await loadServerWords();
    forgetLanguageChoice();
    await setLanguage('en');
  });

  it('says the server’s fixed messages and labels in Spanish', () => {
    expect(serverText('Required Field', 'es')).toBe('Campo obligatorio');
    expect(serverText('Mobile phone', 'es')).toBe('Teléfono celular');
  });

  it('fills the values of a message, translating a value that is itself a label', () => {
    expect(serverText(messages.minAge(18), 'es')).toBe('Debe tener al menos 18 años');
    expect(serverText(messages.phone('Mobile phone'), 'es')).toBe('Teléfono celular: el número de teléfono no es válido');
    expect(serverText(messages.minValue('01/02/2006'), 'es')).toBe('Debe ser al menos 01/02/2006');
  });

  it('turns Spanish it holds back into English when the patient switches back', () => {
    expect(serverText('Campo obligatorio', 'en')).toBe('Required Field');
    expect(serverText('Debe tener al menos 18 años', 'en')).toBe('Must be at least 18 years old');
  });

  it('leaves what it does not know, and what is already in the language, as it is', () => {
    expect(serverText('Maple Street Dental', 'es')).toBe('Maple Street Dental');
    expect(serverText('Campo obligatorio', 'es')).toBe('Campo obligatorio');
    expect(serverText('Required Field', 'en')).toBe('Required Field');
    expect(serverText(undefined, 'es')).toBe('');
  });

  it('has every message the browser’s own validator can say', () => {
    const fixed = [messages.required, messages.invalid, messages.noPoBox, messages.email, messages.emailUnsupported, messages.zip];
    const built = [messages.minLength(2), messages.maxLength(40), messages.maxAge(120), messages.maxValue('$50,000.00'), messages.wholeNumber];
    for (const m of [...fixed, ...built, messages.requireOne, messages.notInFuture, messages.notInPast]) {
      expect(serverText(m, 'es'), m).not.toBe(m);
    }
    expect(serverText(messages.chars(['~'], 'letters, spaces, apostrophes, periods and hyphens'), 'es')).toBe(
      'No se permiten estos caracteres: ~. Use solo letras, espacios, apóstrofos, puntos y guiones.',
    );
  });
});
