/*
 * The browser's copy of the server's catalogue (written from locale/es.go by
 * `make generate`, locale/browser.go: English keys, Spanish values, %s where a value
 * goes) and the reading of text by it, both ways. This module and the
 * catalogue are fetched when Spanish is first asked for (lib/i18n.ts,
 * loadServerWords), not with the form: an English visit never needs them,
 * and text the server said in Spanish can only come from a call made after
 * Spanish was asked for. lib/serverText.ts is what screens call.
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

/**
 * serverReader reads the server's catalogue (English text to Spanish,
 * serverMessages.generated.json) and answers the function that says a text
 * of the server's in a language, as far as the catalogue knows it; other
 * text as it is.
 */
export function serverReader(spanish: Record<string, string>): (text: string, lng: 'en' | 'es') => string {
  const pairs = Object.entries(spanish);
  const toSpanish = direction(pairs);
  const toEnglish = direction(pairs.map(([en, es]) => [es, en]));
  return (text, lng) => translate(text, lng === 'es' ? toSpanish : toEnglish, 0);
}
