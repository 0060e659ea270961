import catalogue from './serverMessages.generated.json';
import { currentLanguage, type Language } from './i18n';

/*
 * The server's words in the patient's language (docs/languages.md). The
 * server answers labels, hints and messages in the language of the call;
 * the browser also says the server's validation messages itself, and keeps
 * labels it fetched before the patient switched language. serverText turns
 * any of these into the language shown now, from the browser's copy of the
 * server's catalogue (written from locale/es.go by locale/browser_test.go):
 * English keys, Spanish values, %s where a value goes.
 */

interface Pattern {
  re: RegExp;
  out: string;
}

interface Direction {
  exact: Map<string, string>;
  patterns: Pattern[];
}

function direction(pairs: [string, string][]): Direction {
  const exact = new Map<string, string>();
  const patterns: Pattern[] = [];
  // Longest first, so a pattern is tried before a shorter one it contains.
  for (const [from, to] of [...pairs].sort((a, b) => b[0].length - a[0].length)) {
    if (!from.includes('%s')) {
      exact.set(from, to);
      continue;
    }
    const expr = from
      .split('%s')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('(.+?)');
    patterns.push({ re: new RegExp(`^${expr}$`, 's'), out: to });
  }
  return { exact, patterns };
}

const pairs = Object.entries(catalogue.es);
const toSpanish = direction(pairs);
const toEnglish = direction(pairs.map(([en, es]) => [es, en]));

function translate(text: string, d: Direction, depth: number): string {
  const hit = d.exact.get(text);
  if (hit !== undefined) return hit;
  if (depth > 2) return text;
  for (const p of d.patterns) {
    const m = p.re.exec(text);
    if (!m) continue;
    let i = 1;
    return p.out.replace(/%s/g, () => translate(m[i++] ?? '', d, depth + 1));
  }
  return text;
}

/** serverText answers a label, hint or message of the server's in the given language (the app's by default); unknown text as it is. */
export function serverText(text: string | null | undefined, lng: Language = currentLanguage()): string {
  if (!text) return '';
  return translate(text, lng === 'es' ? toSpanish : toEnglish, 0);
}
