/*
 * The browser's copy of the server's catalogue (written from locale/es.go by
 * locale/browser_test.go: English keys, Spanish values, %s where a value
 * goes) and the reading of text by it, both ways. It comes with the Spanish
 * messages (lib/i18n.ts, loaders), not with the form: an English visit never
 * needs it, and text the server said in Spanish can only come from a call
 * made after Spanish was asked for, which loads it. lib/serverText.ts is
 * what screens call.
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

let toSpanish = direction([]);
let toEnglish = direction([]);

/** learnServerWords takes the server's catalogue: English text to Spanish (serverMessages.generated.json). */
export function learnServerWords(spanish: Record<string, string>): void {
  const pairs = Object.entries(spanish);
  toSpanish = direction(pairs);
  toEnglish = direction(pairs.map(([en, es]) => [es, en]));
}

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

/** translateServerText answers text of the server's in lng, as far as the catalogue knows it; other text as it is. */
export function translateServerText(text: string, lng: 'en' | 'es'): string {
  return translate(text, lng === 'es' ? toSpanish : toEnglish, 0);
}
