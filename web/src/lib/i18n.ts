import { cloneElement, createElement, Fragment, useSyncExternalStore, type ReactElement, type ReactNode } from 'react';
import type { Catalogue } from '@/locales/en';
import shell from '@/locales/en/shell';
import { fill, type Values } from './fill';
import { CHOICE_KEY, localeOf, storedChoice, type Language } from './language';

/*
 * The patient's language (docs/languages.md). The English of the shell and
 * the first screen ships with the first route, the form's with the form
 * (loadFormMessages) and the rest of the journey's with the first screen
 * after it (loadJourneyMessages); Spanish loads whole when it is first
 * chosen, so an English visit never downloads it.
 * The choice (lib/language.ts) is, in order: what the patient picked in
 * this tab's session, the office's default language, the browser's
 * languages, then English. Every API call says it (Accept-Language, lib/api/client.ts),
 * so the server answers its messages in the same language, and <html lang>
 * follows it so screen readers speak it with the right voice.
 *
 * The messages are read here, by our own small reader: the app needs only
 * a message by its dotted key, {{value}} placeholders, plural forms chosen
 * by Intl.PluralRules, English for what another language lacks, and named
 * tags (<strong>…</strong>) that Trans fills with elements.
 */

export { asLanguage, LANGUAGES, preferredLanguage, type Language } from './language';

/** The name of each language in itself, as the switch shows it. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', es: 'Español' };

/* The keys, checked by tsc against the English catalogue (locales/en/index.ts). */

/** Leaves are the dotted keys of a catalogue's messages: { a: { b: "x" } } → "a.b". */
type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];
type StoredKey = Leaves<Catalogue>;
type PluralStem<K> = K extends `${infer Stem}_${'zero' | 'one' | 'two' | 'few' | 'many' | 'other'}` ? Stem : never;
/** A plural is asked for by its stem ("x" for x_one and x_other), always with a count. */
export type PluralKey = PluralStem<StoredKey>;
/** MessageKey is every key t() and Trans accept; any other fails to compile. */
export type MessageKey = StoredKey | PluralKey;

export type { Values } from './fill';
type ValuesFor<K> = K extends PluralKey ? [values: Values & { count: number }] : [values?: Values];
export type TFunction = <K extends MessageKey>(key: K, ...values: ValuesFor<K>) => string;

type Tree = { [key: string]: string | Tree };

/** Each language's messages loaded so far; English starts with the shell's. */
const messages: Partial<Record<Language, Tree>> = { en: shell };
let language: Language = 'en';

/** merge answers into with from's messages added, copying rather than changing the catalogue modules' own objects. */
function merge(into: Tree, from: Tree): Tree {
  const out = { ...into };
  for (const [k, v] of Object.entries(from)) {
    const old = out[k];
    out[k] = typeof v === 'object' && typeof old === 'object' ? merge(old, v) : v;
  }
  return out;
}

/** find answers a language's message by its dotted key, or undefined. */
function find(lng: Language, key: string): string | undefined {
  let node: string | Tree | undefined = messages[lng];
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

/** Each language's plural rules, made once. */
const pluralRules = new Map<Language, Intl.PluralRules>();
const pluralForm = (lng: Language, count: number) => {
  if (!pluralRules.has(lng)) pluralRules.set(lng, new Intl.PluralRules(lng));
  return pluralRules.get(lng)!.select(count);
};

/**
 * message answers the words of a key before its placeholders are filled: the
 * plural form for the count (its own form, else _other, else the bare key),
 * in the current language, else in English, else the key itself; with the
 * language the words are in.
 */
function message(key: string, count: unknown): { text: string; lng: Language } {
  for (const lng of new Set<Language>([language, 'en'])) {
    const plural = typeof count === 'number' ? (find(lng, `${key}_${pluralForm(lng, count)}`) ?? find(lng, `${key}_other`)) : undefined;
    const text = plural ?? find(lng, key);
    if (text !== undefined) return { text, lng };
  }
  return { text: key, lng: 'en' };
}

/** translator answers a new translation function; its types check the key and the values. */
const translator = () =>
  ((key: string, values: Values = {}) => {
    const m = message(key, values.count);
    return fill(m.text, values, m.lng);
  }) as TFunction;

/** t translates outside React (plain functions, error boundaries). */
export const t = translator();

/* Components follow the messages through a store: a new language, or a bundle that arrives, renders them again. */

const renders = new Set<() => void>();
const switches = new Set<(lng: Language) => void>();
/** A new function at every change, so an effect that depends on t (a page's title) runs again. */
let current = translator();

function changed() {
  current = translator();
  renders.forEach((fn) => fn());
}

function subscribe(fn: () => void): () => void {
  renders.add(fn);
  return () => renders.delete(fn);
}

function addMessages(lng: Language, tree: object) {
  messages[lng] = merge(messages[lng] ?? {}, tree as Tree);
  changed();
}

/**
 * i18n is the language's state for code outside React: the language spoken
 * now, and on('languageChanged') to act on a switch (the flow store drops
 * documents fetched in the old language); on answers the way to stop.
 */
export const i18n = {
  get language(): Language {
    return language;
  },
  on(_event: 'languageChanged', fn: (lng: Language) => void): () => void {
    switches.add(fn);
    return () => switches.delete(fn);
  },
};

/** useT answers the translation function; the component renders again when the language changes or more messages arrive. */
export function useT(): TFunction {
  return useSyncExternalStore(subscribe, () => current);
}

/** useLanguage answers the language spoken now; the component renders again when it changes. */
export function useLanguage(): Language {
  return useSyncExternalStore(subscribe, () => language);
}

export type TransProps<K extends MessageKey> = {
  i18nKey: K;
  values?: Values;
  /** The elements a message's named tags stand for: <strong>…</strong> renders components.strong with the words inside. */
  components?: Record<string, ReactElement>;
} & (K extends PluralKey ? { count: number } : { count?: number });

/**
 * Trans renders a message whose words carry markup, "Read our <doc>privacy
 * notice</doc>", each named tag becoming its element from components with the
 * tag's words (and tags) as children; <name/> is the element as it is. The
 * values fill the words after the tags are read, so a value that looks like
 * a tag (a help search) stays text. A tag without an element keeps only its words.
 */
export function Trans<K extends MessageKey>({ i18nKey, values, count, components = {} }: TransProps<K>): ReactNode {
  useT();
  const all: Values = { ...values, count };
  const m = message(i18nKey, count);
  const parts = m.text.split(/<(\/?)(\w+)\s*(\/?)>/);
  const open: { name: string; kids: ReactNode[] }[] = [{ name: '', kids: [] }];
  const close = () => {
    const { name, kids } = open.pop()!;
    const el = components[name];
    open.at(-1)!.kids.push(...(el ? [cloneElement(el, undefined, ...kids)] : kids));
  };
  // split gives the words, then each tag as its slash, name and closing slash.
  for (let i = 0; i < parts.length; i += 4) {
    if (parts[i]) open.at(-1)!.kids.push(fill(parts[i]!, all, m.lng));
    const name = parts[i + 2];
    if (name === undefined) break;
    if (parts[i + 1] && open.length > 1) close();
    else if (parts[i + 3] && components[name]) open.at(-1)!.kids.push(components[name]);
    else if (!parts[i + 1] && !parts[i + 3]) open.push({ name, kids: [] });
  }
  while (open.length > 1) close();
  return createElement(Fragment, null, ...open[0]!.kids);
}

const loaders: Record<Language, () => Promise<object>> = {
  en: () => Promise.resolve(shell),
  // Spanish fetches the server's catalogue too, beside it, without waiting for it (loadServerWords).
  es: () => {
    void loadServerWords();
    return import('@/locales/es').then((m) => m.default);
  },
};

let serverWordsLoaded: Promise<void> | null = null;
/** readServer says the server's text in a language once its catalogue is here (lib/serverWords.ts); until then as the server said it. */
let readServer: ((text: string, lng: Language) => string) | null = null;

/** translateServer answers a text of the server's in lng, as far as its catalogue (once here) knows it (lib/serverText.ts). */
export function translateServer(text: string, lng: Language): string {
  return readServer ? readServer(text, lng) : text;
}

/**
 * loadServerWords loads the browser's copy of the server's catalogue once
 * (lib/serverWords.ts). No screen waits for it: the first Spanish screen
 * shows no text of the server's, and once it is there every screen renders
 * again, so text said before it came is said again in the language shown.
 */
export function loadServerWords(): Promise<void> {
  serverWordsLoaded ??= Promise.all([import('./serverMessages.generated.json'), import('./serverWords')]).then(([server, words]) => {
    readServer = words.serverReader(server.default.es);
    changed();
  });
  return serverWordsLoaded;
}

/**
 * The English beyond the first route, in the parts screens ask for: the
 * form's (with the start screen's), and the journey's after it.
 */
const parts = {
  form: () => import('@/locales/en/form'),
  journey: () => import('@/locales/en/journey'),
};
type Part = keyof typeof parts;
/** Each part's loading, once, by the parts a screen asked for (so a switch back to English waits for them too). */
const partsLoaded = new Map<Part, Promise<void>>();

function loadPart(part: Part): Promise<void> {
  let loaded = partsLoaded.get(part);
  if (!loaded) {
    loaded = parts[part]().then((m) => addMessages('en', m.default));
    partsLoaded.set(part, loaded);
  }
  return loaded;
}

/**
 * loadFormMessages loads the English of the start screen and the form,
 * once; the form's screens wait for it beside their own code, so it costs
 * no round trip of its own. A screen already shown renders again with the
 * new messages.
 */
export function loadFormMessages(): Promise<void> {
  return loadPart('form');
}

/** loadJourneyMessages loads the English of every screen after the idle one: the form's, and the journey's after it. */
export function loadJourneyMessages(): Promise<void> {
  return Promise.all([loadPart('form'), loadPart('journey')]).then(() => undefined);
}

/** withMessages wraps the loader of a lazy screen's, drawer's or modal's code so its words arrive with it. */
const withMessages =
  (words: () => Promise<void>) =>
  <T>(load: () => Promise<T>) =>
  (): Promise<T> =>
    Promise.all([load(), words()]).then(([m]) => m);

/** withFormMessages: the start screen's and the form's code, with their words (loadFormMessages). */
export const withFormMessages = withMessages(loadFormMessages);
/** withJourneyMessages: any later screen's, drawer's or modal's code, with the journey's words (loadJourneyMessages). */
export const withJourneyMessages = withMessages(loadJourneyMessages);

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
  return language;
}

/** locale is the BCP 47 locale Intl formats money, numbers and dates with: US conventions in either language. */
export function locale(lng: Language = currentLanguage()): string {
  return localeOf(lng);
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
  if (!messages[lng]) addMessages(lng, await loaders[lng]());
  if (lng === 'en') await Promise.all(partsLoaded.values());
  // A switch asked for while these messages loaded decides: the last one the patient asked for wins.
  if (wanted !== lng) return;
  if (opts.remember) {
    try {
      sessionStorage.setItem(CHOICE_KEY, lng);
    } catch {
      // Private modes may refuse storage: the choice then lasts until the page reloads.
    }
  }
  if (language !== lng) {
    language = lng;
    switches.forEach((fn) => fn(lng));
    changed();
  }
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
