import { useEffect } from 'react';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '@/locales/en';
import es from '@/locales/es';
import { setLanguage, t, Trans, useLanguage, useT } from './i18n';

/* Reading the messages (lib/i18n.ts): placeholders, plurals, fallbacks, markup, and screens that follow the language. */

/** freshI18n answers lib/i18n.ts loaded anew, with only the shell's English, and with Spanish as given. */
async function freshI18n(spanish: object = es) {
  vi.resetModules();
  vi.doMock('@/locales/es', () => ({ default: spanish }));
  return import('./i18n');
}

afterEach(() => {
  vi.doUnmock('@/locales/es');
});

describe('t', () => {
  it('fills placeholders without escaping them, and leaves one without a value as written', () => {
    expect(t('common.wording.staffBrand', { brand: 'Smith & Sons <Dental>' })).toBe('the Smith & Sons <Dental> team');
    expect(t('common.wording.staffBrand')).toBe('the {{brand}} team');
    expect(t('common.wording.staffBrand', { brand: null })).toBe('the  team');
  });

  it('picks the plural form for the count, which is a placeholder too', async () => {
    expect(t('help.matches', { count: 1, q: 'gum' })).toBe('1 term matches “gum”.');
    expect(t('help.matches', { count: 3, q: 'gum' })).toBe('3 terms match “gum”.');
    expect(t('help.matches', { count: 0, q: 'gum' })).toBe('0 terms match “gum”.');
    await setLanguage('es');
    expect(t('help.matches', { count: 1, q: 'encía' })).toBe('1 término coincide con “encía”.');
    expect(t('help.matches', { count: 2, q: 'encía' })).toBe('2 términos coinciden con “encía”.');
  });

  it('uses Spanish’s many form for a million, and _other when a plural lacks the form', async () => {
    const fresh = await freshI18n({
      help: { matches_one: 'uno: {{count}}', matches_many: 'muchos: {{count}}', matches_other: 'otros: {{count}}' },
      application: { agree: { soft_one: 'una consulta', soft_other: 'consultas' } },
    });
    await fresh.setLanguage('es');
    expect(fresh.t('help.matches', { count: 1 })).toBe('uno: 1');
    expect(fresh.t('help.matches', { count: 1000000 })).toBe('muchos: 1000000');
    expect(fresh.t('help.matches', { count: 2 })).toBe('otros: 2');
    expect(fresh.t('application.agree.soft', { count: 1000000 })).toBe('consultas');
  });

  it('falls back to English for what Spanish lacks, then to the key', async () => {
    const fresh = await freshI18n({ common: { shell: { help: 'Ayuda' } } });
    await fresh.setLanguage('es');
    expect(fresh.t('common.shell.help')).toBe('Ayuda');
    expect(fresh.t('common.shell.cancel')).toBe(en.common.shell.cancel);
    // The journey's English has not been loaded in this copy of the module, later screens' shared words among it.
    expect(fresh.t('common.actions.tryAgain')).toBe('common.actions.tryAgain');
    expect(fresh.t('help.pageTitle')).toBe('help.pageTitle');
    expect(fresh.t('help.matches', { count: 2 })).toBe('help.matches');
  });

  it('accepts only the English catalogue’s keys, and a plural only with its count', () => {
    // @ts-expect-error: not a key of locales/en/index.ts
    expect(t('common.shell.nowhere')).toBe('common.shell.nowhere');
    // @ts-expect-error: a plural is asked for with its count
    expect(t('help.matches', { q: 'gum' })).toBe('help.matches');
    // @ts-expect-error: a plural's forms come from the catalogue, not a string built at run time
    expect(t(`help.${'matches' as string}`)).toBe('help.matches');
    expect(t('help.matches_one', { count: 5, q: 'gum' })).toBe('5 term matches “gum”.');
  });
});

describe('Trans', () => {
  it('puts the named tags’ elements around their words, with the values in place', () => {
    const { container } = render(
      <Trans
        i18nKey="results.reference.ours"
        values={{ reference: 'R-1', staff: 'the team' }}
        components={{ ref: <strong className="reference" /> }}
      />,
    );
    expect(container.innerHTML).toBe('Your reference: <strong class="reference">R-1</strong>. With it, the team can find your application.');
  });

  it('gives each tag its own element, beside one another', () => {
    const { container } = render(
      <Trans
        i18nKey="application.form.required"
        components={{ star: <span className="req" aria-hidden="true" />, hidden: <span className="visually-hidden" /> }}
      />,
    );
    expect(container.innerHTML).toBe(
      'Fields marked with <span class="req" aria-hidden="true">*</span><span class="visually-hidden">a star</span> are required.',
    );
  });

  it('picks the plural form for its count', () => {
    const { container } = render(<Trans i18nKey="application.agree.soft" count={2} components={{ strong: <strong /> }} />);
    expect(container.innerHTML).toBe('These are <strong>soft credit checks</strong>. They do <strong>not</strong> affect your credit score.');
  });

  it('keeps a value that looks like markup as text', () => {
    const { container } = render(<Trans i18nKey="help.noMatch" values={{ q: '<em>gum</em>' }} components={{ strong: <strong /> }} />);
    expect(container.querySelector('em')).toBeNull();
    expect(container.querySelector('strong')?.textContent).toBe('No terms match “<em>gum</em>”.');
  });

  it('reads self-closing tags, a tag without an element, and a tag left open', async () => {
    const fresh = await freshI18n({ help: { noMatch: 'a<br/>b <b>c</b> <strong>d' } });
    await fresh.setLanguage('es');
    const { container } = render(<fresh.Trans i18nKey="help.noMatch" components={{ br: <hr />, strong: <strong /> }} />);
    expect(container.innerHTML).toBe('a<hr>b c <strong>d</strong>');
  });

  it('accepts only known keys, and a plural only with its count', () => {
    // @ts-expect-error: not a key of locales/en/index.ts
    const unknown = <Trans i18nKey="help.nowhere" />;
    // @ts-expect-error: a plural is asked for with its count
    const uncounted = <Trans i18nKey="offers.card.payments" />;
    expect([unknown, uncounted]).toHaveLength(2);
  });
});

describe('screens', () => {
  function Screen() {
    const t = useT();
    const language = useLanguage();
    useEffect(() => {
      document.title = t('help.pageTitle');
    }, [t]);
    return (
      <div lang={language}>
        <h1>{t('common.shell.help')}</h1>
        <p>
          <Trans i18nKey="help.noMatch" values={{ q: 'gum' }} components={{ strong: <strong /> }} />
        </p>
      </div>
    );
  }

  it('render again in the new language, and effects on t run again', async () => {
    const { container } = render(<Screen />);
    expect(screen.getByRole('heading').textContent).toBe('Help');
    expect(document.title).toBe('Help — Chairside');
    await act(() => setLanguage('es'));
    expect(screen.getByRole('heading').textContent).toBe('Ayuda');
    expect(container.querySelector('strong')?.textContent).toBe('Ningún término coincide con “gum”.');
    expect(container.firstElementChild?.getAttribute('lang')).toBe('es');
    expect(document.title).toBe('Ayuda — Chairside');
  });

  it('render again when the journey’s messages arrive after them', async () => {
    const fresh = await freshI18n();
    function Early() {
      const t = fresh.useT();
      return (
        <p>
          {t('help.pageTitle')} <fresh.Trans i18nKey="help.noMatch" values={{ q: 'gum' }} components={{ strong: <strong /> }} />
        </p>
      );
    }
    const { container } = render(<Early />);
    expect(container.textContent).toBe('help.pageTitle help.noMatch');
    await act(() => fresh.loadJourneyMessages());
    expect(container.querySelector('p')?.firstChild?.textContent).toBe('Help — Chairside');
    expect(container.querySelector('strong')?.textContent).toBe('No terms match “gum”.');
  });

  it('hear of a switch outside React through i18n.on', async () => {
    const fresh = await freshI18n();
    const heard: string[] = [];
    const stop = fresh.i18n.on('languageChanged', (lng) => heard.push(`${lng}:${fresh.i18n.language}`));
    await fresh.setLanguage('es');
    await fresh.setLanguage('es');
    stop();
    await fresh.setLanguage('en');
    expect(heard).toEqual(['es:es']);
  });
});
