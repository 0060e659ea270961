/*
 * Catalogue parity (docs/languages.md): every message the patient may see
 * exists in every language, with the same placeholders and markup, and each
 * plural has the forms its language needs. The parity test runs this over
 * the real catalogues; its own cases show it catches each kind of gap.
 */

type Tree = { [key: string]: string | Tree };

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** flatten turns nested messages into dotted keys: { a: { b: "x" } } → { "a.b": "x" }. */
export function flatten(tree: object, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree as Tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else for (const [kk, vv] of flatten(v, key)) out.set(kk, vv);
  }
  return out;
}

/** tokens are the parts a translation must keep: {{placeholders}} and <0>/<b> markup for Trans. */
function tokens(message: string): string {
  const found = [...message.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}|<\/?(\w+)\s*\/?>/g)].map((m) => (m[1] ? `{{${m[1]}}}` : `<${m[2]}>`));
  return [...new Set(found)].sort().join(' ');
}

/** compareCatalogues lists every difference between a language and the source language (English). */
export function compareCatalogues(source: object, target: object, targetLanguage: string, sourceLanguage = 'en'): string[] {
  const problems: string[] = [];
  const src = flatten(source);
  const dst = flatten(target);
  const base = (m: Map<string, string>) => new Set([...m.keys()].map((k) => k.replace(PLURAL_SUFFIX, '')));
  const srcBase = base(src);
  const dstBase = base(dst);
  for (const k of srcBase) if (!dstBase.has(k)) problems.push(`${targetLanguage} lacks ${k}`);
  for (const k of dstBase) if (!srcBase.has(k)) problems.push(`${sourceLanguage} lacks ${k} (only in ${targetLanguage})`);

  const forms = (lng: string) => new Intl.PluralRules(lng).resolvedOptions().pluralCategories as string[];
  const check = (m: Map<string, string>, lng: string) => {
    for (const k of m.keys()) {
      const hit = PLURAL_SUFFIX.exec(k);
      if (!hit) continue;
      const stem = k.slice(0, hit.index);
      for (const f of forms(lng)) if (!m.has(`${stem}_${f}`)) problems.push(`${lng} lacks the plural form ${stem}_${f}`);
    }
  };
  check(src, sourceLanguage);
  check(dst, targetLanguage);

  for (const [k, v] of src) {
    const stem = k.replace(PLURAL_SUFFIX, '');
    const other = dst.get(k) ?? dst.get(`${stem}_other`);
    if (other === undefined) continue;
    if (!other.trim()) problems.push(`${targetLanguage} ${k} is empty`);
    if (tokens(v) !== tokens(other))
      problems.push(`${targetLanguage} ${k} has ${tokens(other) || 'no placeholders'}, ${sourceLanguage} has ${tokens(v) || 'none'}`);
  }
  return [...new Set(problems)];
}
