import en from '@/locales/en/application.first.json';
import es from '@/locales/es/application.first.json';
import { notePainted } from './api/early';
import type { StartFlowResponse } from './api/types';
import { centsIn } from './amounts';
import { fill } from './fill';
import { lenderKeyOf } from './lenderKey';
import { localeOf, preferredLanguage, type Language } from './language';

/*
 * The application screen's first words (docs/performance.md, "The
 * application screen"). A link's page draws its top bar at once, but the
 * screen itself waits for the app's code: on a slow phone a second or more
 * after the start call has answered. The heading and the lead, which say
 * what this screen is and with which lender, need none of that code: the
 * early start (src/early.ts) draws them as soon as its answer is here, in
 * the words and the place the app then draws them in, so nothing moves when
 * the app takes the page over. This module has none of the app's code: it
 * ships in a chunk of its own that only a link's page loads first
 * (vite.config.ts, FIRST_WORDS).
 */

export interface ApplicationWords {
  title: string;
  lead: string;
}

/** FirstWords are the words a link's page draws before the app: the heading, the lead and what a screen reader hears while the form loads, in a language. */
export interface FirstWords extends ApplicationWords {
  loading: string;
  lang: Language;
}

/** pageWords answers the application screen's own words in a language (application.first.json, in each language's locales). */
const pageWords = (lng: Language) => (lng === 'es' ? es : en).page;

/** applicationWords answers the application screen's heading and lead: in a language, for an amount (0 when none is known) and a lender's name. */
export function applicationWords(lng: Language, amountCents: number, lender: string): ApplicationWords {
  const page = pageWords(lng);
  const lead = amountCents ? fill(page.leadAmount, { amount: centsIn(localeOf(lng), amountCents), lender }, lng) : fill(page.lead, { lender }, lng);
  return { title: page.title, lead };
}

/**
 * firstWordsOf answers the words the app's first screen will show after this
 * start, or null when they cannot be known yet: the start's answer came
 * without the form, or in another language than the one the app will speak
 * (the app then asks for the form again, and names the lender once it has
 * it). The answer names its language; asked is the one the call asked in.
 * Every start leads to the first lender's form (flow/start.ts, enterSession).
 */
export function firstWordsOf(res: StartFlowResponse, asked: Language): FirstWords | null {
  const lng = preferredLanguage(res.location?.language);
  if (lng !== (res.language ?? asked) || !res.form) return null;
  const key = res.session.dynamicProviderKey;
  const lender = res.form.providers?.find((p) => lenderKeyOf(p) === key)?.name;
  if (!lender) return null;
  return { ...applicationWords(lng, res.application?.purchaseAmountCents ?? 0, lender), loading: pageWords(lng).loading, lang: lng };
}

/** PAGE_BAR: the attribute of the top bar the page itself draws (index.html), which the app's own replaces. */
export const PAGE_BAR = 'data-page-bar';

/** element makes an element with its attributes, in the order given (React writes them in its props' order), and its children. */
function element(doc: Document, tag: string, attrs: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElement {
  const el = doc.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
  el.append(...children);
  return el;
}

/**
 * outline draws what the app draws around the form's heading while the form is on its way: the
 * stepper's band at its height (app/Stepper.tsx, StepperOutline) and the shapes of a loading
 * screen (components/Skeleton.tsx, Loading), as the same markup.
 */
function outline(doc: Document, loading: string): { stepper: HTMLElement; status: HTMLElement } {
  const stepper = element(
    doc,
    'nav',
    { class: 'stepper stepper--outline', 'aria-hidden': 'true' },
    element(doc, 'ol', {}, element(doc, 'li', {}, element(doc, 'span', { class: 'dot' }))),
    element(doc, 'div', { class: 'stepper__narrow' }, '\u00a0', element(doc, 'div', { class: 'stepper__bar' })),
  );
  const shapes = ['title', 'field', 'field', 'field'].map((shape) => element(doc, 'div', { class: `skeleton skeleton--${shape}` }));
  const status = element(
    doc,
    'div',
    { role: 'status', 'aria-live': 'polite' },
    element(doc, 'span', { class: 'visually-hidden' }, loading),
    element(doc, 'div', { 'aria-hidden': 'true' }, ...shapes),
  );
  return { stepper, status };
}

/**
 * paintFirstWords draws the heading and the lead under the page's own top
 * bar, below a stepper's outline of the height the app's stepper takes, and
 * answers whether it did: only while the page is still the page's own, for
 * once the app has drawn anything the screen is the app's.
 */
export function paintFirstWords(words: FirstWords, doc: Document = document): boolean {
  const root = doc.getElementById('root');
  if (!root || root.children.length !== 1 || !root.firstElementChild?.hasAttribute(PAGE_BAR)) return false;
  const { stepper, status } = outline(doc, words.loading);
  const main = element(
    doc,
    'main',
    { id: 'main', class: 'main', 'aria-busy': 'true', lang: words.lang },
    element(doc, 'h1', {}, words.title),
    element(doc, 'p', { class: 'lead' }, words.lead),
    status,
  );
  root.append(stepper, main);
  notePainted(words);
  return true;
}
