import { afterEach, describe, expect, it } from 'vitest';
import type { StartFlowResponse } from '@/lib/api/types';
import { setLanguage, t } from '@/lib/i18n';
import { CHOICE_KEY } from '@/lib/language';
import { formatCents } from '@/lib/money';
import { applicationWords, firstWordsOf } from './firstWords';

/*
 * The words a link's page draws before the app has loaded (lib/firstWords.ts)
 * must be the app's own, in the app's language, or the screen would change
 * under the patient when the app takes it over (its markup: app/ShellFallback.test.tsx).
 */

const LENDER = 'Synchrony';

/** start is a start call's answer at an office (its language, if any), whose first lender's form came with it. */
function start({ language, amountCents = 0, form = true }: { language?: string; amountCents?: number; form?: boolean } = {}): StartFlowResponse {
  return {
    session: { dynamicProviderKey: 'synchrony_standard' },
    location: language ? { language } : {},
    application: { purchaseAmountCents: amountCents },
    form: form
      ? {
          providerKey: 'synchrony_standard',
          providers: [
            { providerKey: 'fortiva_standard', name: 'Fortiva' },
            { providerKey: 'synchrony_standard', name: LENDER },
          ],
        }
      : undefined,
  } as unknown as StartFlowResponse;
}

afterEach(() => sessionStorage.clear());

describe('the application screen’s first words', () => {
  it('are the words the app’s catalogue gives, with and without an amount, in both languages', async () => {
    for (const lng of ['en', 'es'] as const) {
      await setLanguage(lng);
      expect(applicationWords(lng, 0, LENDER)).toEqual({ title: t('application.page.title'), lead: t('application.page.lead', { lender: LENDER }) });
      expect(applicationWords(lng, 450_000, LENDER).lead).toBe(t('application.page.leadAmount', { amount: formatCents(450_000), lender: LENDER }));
    }
    expect(applicationWords('en', 450_000, LENDER).lead).toBe('You’re checking financing for $4,500.00 of treatment with Synchrony.');
    expect(applicationWords('es', 0, LENDER).lead).toBe('Está consultando opciones de financiamiento con Synchrony.');
  });

  it('are known from a start’s answer only when the app will show them at once', () => {
    expect(firstWordsOf(start(), 'en')).toEqual({
      title: 'Tell us about yourself',
      lead: 'You’re checking financing options with Synchrony.',
      loading: 'Loading the application form…',
      lang: 'en',
    });
    expect(firstWordsOf(start({ amountCents: 320_000 }), 'en')?.lead).toBe('You’re checking financing for $3,200.00 of treatment with Synchrony.');
    // An office that speaks Spanish, asked in Spanish: its words.
    expect(firstWordsOf(start({ language: 'es' }), 'es')).toMatchObject({ title: 'Cuéntenos sobre usted', lang: 'es' });
    // Asked in English at an office that speaks Spanish: the app asks for the form again in Spanish first,
    // unless the answer says the form came in the office's language already.
    expect(firstWordsOf(start({ language: 'es' }), 'en')).toBeNull();
    expect(firstWordsOf({ ...start({ language: 'es' }), language: 'es' }, 'en')).toMatchObject({ title: 'Cuéntenos sobre usted', lang: 'es' });
    // Unless the patient chose English in this tab: the office's language does not override that.
    sessionStorage.setItem(CHOICE_KEY, 'en');
    expect(firstWordsOf(start({ language: 'es' }), 'en')).toMatchObject({ lang: 'en' });
    // Without the form, or without the first lender's name in it, the lender cannot be named yet.
    expect(firstWordsOf(start({ form: false }), 'en')).toBeNull();
    const nameless = start();
    nameless.form!.providers = [];
    expect(firstWordsOf(nameless, 'en')).toBeNull();
    // A catalogue entry named by its providerId only, as the store's catalogue takes it too (lib/lenderKey.ts).
    const byId = start();
    byId.form!.providers = [{ providerId: 'synchrony_standard', name: LENDER }] as never;
    expect(firstWordsOf(byId, 'en')?.lead).toBe('You’re checking financing options with Synchrony.');
  });
});
