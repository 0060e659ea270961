import { expect, type Page } from '@playwright/test';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * The Spanish walk's tools (docs/languages.md): the Spanish catalogue, to
 * find controls by their Spanish names, and a check that nothing English is
 * left on a screen.
 */

const LOCALES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src', 'locales');

type Tree = { [k: string]: string | Tree };

/** catalogue reads a language's files into one tree; a part's first-route words (common.first.json) join the rest of it (common.json). */
function catalogue(lang: string): Tree {
  const dir = path.join(LOCALES, lang);
  const out: Record<string, Tree> = {};
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
    const part = f.split('.')[0]!;
    out[part] = { ...out[part], ...(JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Tree) };
  }
  return out;
}

const ES = catalogue('es');
const EN = catalogue('en');

function lookUp(tree: Tree, key: string): string {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'string') throw new Error(`no message ${key}`);
  return node;
}

/** es answers a Spanish message, its {{values}} filled in. */
export function es(key: string, values: Record<string, string> = {}): string {
  return lookUp(ES, key).replace(/\{\{(\w+)\}\}/g, (_, v: string) => values[v] ?? '');
}

/** The languages of the catalogues (docs/languages.md). */
export type Language = 'en' | 'es';

/**
 * say answers a message of either catalogue, its {{values}} filled in; with
 * a count, the plural form the app's i18next picks (the `_one`, `_many`,
 * `_other` suffix by the language's plural rules).
 */
export function say(lang: Language, key: string, values: Record<string, string | number> = {}): string {
  const tree = lang === 'es' ? ES : EN;
  let full = key;
  if (typeof values.count === 'number') {
    const form = `${key}_${new Intl.PluralRules(lang).select(values.count)}`;
    full = [form, `${key}_other`].find((k) => hasMessage(tree, k)) ?? key;
  }
  return lookUp(tree, full).replace(/\{\{(\w+)\}\}/g, (_, v: string) => String(values[v] ?? ''));
}

function hasMessage(tree: Tree, key: string): boolean {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string';
}

function allMessages(tree: Tree): string[] {
  return Object.values(tree).flatMap((v) => (typeof v === 'string' ? [v] : allMessages(v)));
}

/**
 * Words that are English and never Spanish. A screen that shows one of them
 * (outside a part marked with another lang, such as the "English" switch or
 * a document a lender gives only in English) has English left on it.
 */
const ENGLISH_ONLY = new Set(
  (
    'the your you and with for to of is are this that we our please continue back next help apply payment payments monthly ' +
    'amount loading from will be or at by an it have has not can all any see here more what when who how why yes sign ' +
    'check close cancel start done terms offer offers approved review agree read about questions answers office team ' +
    'only financing credit score month months day days cost rate interest due today get got good news thank thanks ' +
    'choose plan’s signature name first last address city state phone email income birth security number required optional'
  ).split(' '),
);

/** The English messages of our own catalogue that differ from their Spanish: none may be on a Spanish screen. */
const SPANISH_MESSAGES = new Set(allMessages(ES));
const ENGLISH_MESSAGES = new Set(allMessages(EN).filter((m) => m.length > 3 && !/\{\{|</.test(m) && !SPANISH_MESSAGES.has(m)));

/**
 * expectSpanish fails when the screen, as a person sees or hears it, still
 * holds English: a visible text, an accessible name (aria-label, alt,
 * placeholder, title) or the chosen option of a select. `html lang` must
 * be es. `names` are proper names that are English words (an office's name,
 * a lender's product): they are left out of the texts before the check.
 */
export async function expectSpanish(page: Page, screen: string, names: string[] = []): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  expect(await englishOn(page, names), `English on the Spanish screen "${screen}"`).toEqual([]);
}

/** englishOn answers the texts of the screen, as a person sees or hears them, that are English (`names` left out of them). */
export async function englishOn(page: Page, names: string[] = []): Promise<string[]> {
  const texts = await page.evaluate(() => {
    const out: string[] = [];
    const foreign = (el: Element) => el.closest('[lang]:not([lang^="es"])') !== null;
    const shown = (el: Element) => (el as HTMLElement).checkVisibility?.({ opacityProperty: false, visibilityProperty: true }) ?? true;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      const text = n.textContent?.trim();
      if (!el || !text || el.closest('script, style, noscript, option') || foreign(el)) continue;
      // Text hidden from the eye but read to a screen reader (visually-hidden) counts too.
      if (!shown(el) && !el.closest('.visually-hidden, [role=status], [aria-live]')) continue;
      out.push(text);
    }
    for (const el of document.querySelectorAll('[aria-label], [alt], [placeholder], [title]')) {
      if (foreign(el) || !shown(el)) continue;
      for (const a of ['aria-label', 'alt', 'placeholder', 'title']) {
        const v = el.getAttribute(a)?.trim();
        if (v) out.push(v);
      }
    }
    for (const s of document.querySelectorAll('select')) {
      if (!foreign(s) && shown(s)) out.push(s.selectedOptions[0]?.textContent?.trim() ?? '');
    }
    return out.filter(Boolean);
  });
  return texts.filter((text) => {
    const t = names.reduce((rest, name) => rest.split(name).join(' '), text);
    // Words are letters alone: "BE76" in a test's random name suffix is no English "be".
    const words = t.toLowerCase().match(/(?<![\p{L}\d])[a-záéíóúñü’']+(?![\p{L}\d])/gu) ?? [];
    return ENGLISH_MESSAGES.has(t) || words.some((w) => ENGLISH_ONLY.has(w));
  });
}
