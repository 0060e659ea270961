/*
 * English's indefinite article before a name we only know at run time: "an
 * HFD Direct Payment Plan", "an AFF Treatment Loan", "a Synchrony Health
 * Card". The messages write "a {{product}}"; lib/i18n.ts asks withArticles
 * for the right one when it fills an English message.
 */

/** Letters whose English names begin with a vowel sound (an F, an H, an S …). */
const VOWEL_SOUND_LETTER = /^[AEFHILMNORSX]/;
/** Words that begin with a vowel letter but a consonant sound (a unit, a one-time …). */
const CONSONANT_SOUND = /^(uni|use|usu|usa|ute|uti|ure|eu|ewe|one\b|once)/i;
/** Words that begin with a silent h (an hour …). */
const SILENT_H = /^(hour|honest|honou?r|heir)/i;
/** Numbers read with a vowel sound first: 8…, 11 and 18 (an 18-month plan). */
const VOWEL_SOUND_NUMBER = /^(8|1[18](?!\d))/;

/** indefiniteArticle answers "a" or "an" for what follows it, by how its first word is said. */
export function indefiniteArticle(phrase: string): 'a' | 'an' {
  const word = phrase.trim().split(/[\s-]/)[0] ?? '';
  if (!word) return 'a';
  if (/^\d/.test(word)) return VOWEL_SOUND_NUMBER.test(word) ? 'an' : 'a';
  // An initialism (HFD, AFF, ADS) is said letter by letter.
  if (/^[A-Z][A-Z0-9&]*$/.test(word)) return VOWEL_SOUND_LETTER.test(word) ? 'an' : 'a';
  if (SILENT_H.test(word)) return 'an';
  if (CONSONANT_SOUND.test(word)) return 'a';
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}

/**
 * withArticles makes each "a" or "A" written just before a {{placeholder}}
 * the article its value needs ("a {{product}}" with "HFD Direct Payment
 * Plan" becomes "an {{product}}"). English only: elsewhere "a" is another
 * word (Spanish "a {{name}}" is "to").
 */
export function withArticles(text: string, values: Readonly<Record<string, unknown>>): string {
  return text.replace(/\b([Aa]) (?=\{\{\s*(\w+)\s*\}\})/g, (whole, a: string, name: string) => {
    const value = values[name];
    if (typeof value !== 'string' || !value.trim()) return whole;
    const article = indefiniteArticle(value);
    return `${a === 'A' ? article.charAt(0).toUpperCase() + article.slice(1) : article} `;
  });
}
