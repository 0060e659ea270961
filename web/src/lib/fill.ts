import { withArticles } from './article';
import type { Language } from './language';

/** The values a message's {{placeholders}} take; count also picks the plural form. */
export type Values = { count?: number; [name: string]: unknown };

/**
 * fill puts values in a message's {{placeholders}}, unescaped: React escapes
 * what it renders, and escaping here too would show "&amp;". A placeholder
 * without a value stays as it is written, so the gap shows. In English, "a"
 * before a placeholder becomes the article its value needs (lib/article.ts).
 * It is apart from lib/i18n.ts so that the words a link's page draws before
 * the app has loaded are filled the same way (lib/firstWords.ts).
 */
export function fill(text: string, values: Values, lng: Language): string {
  const worded = lng === 'en' ? withArticles(text, values) : text;
  return worded.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (values[name] === undefined ? whole : String(values[name] ?? '')));
}
