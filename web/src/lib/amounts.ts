/*
 * Amounts written in a given locale, with none of the app's code: lib/money.ts
 * writes them in the app's language with these, and so do the words a link's
 * page draws before the app has loaded (lib/firstWords.ts), so the two agree.
 */

type Shape = 'cents' | 'whole' | 'apr';

// Formatters by locale and shape, made once each: Intl formatters are slow to build.
const formatters = new Map<string, Intl.NumberFormat>();

/** numberFormat answers the formatter of a shape in a locale: dollars and cents, whole dollars, or an APR's two decimals. */
export function numberFormat(loc: string, shape: Shape): Intl.NumberFormat {
  const key = `${loc}|${shape}`;
  let f = formatters.get(key);
  if (!f) {
    const opts: Intl.NumberFormatOptions =
      shape === 'apr'
        ? { minimumFractionDigits: 2, maximumFractionDigits: 2 }
        : { style: 'currency', currency: 'USD', ...(shape === 'whole' ? { maximumFractionDigits: 0 } : { minimumFractionDigits: 2 }) };
    f = new Intl.NumberFormat(loc, opts);
    formatters.set(key, f);
  }
  return f;
}

/** centsIn shows integer cents as dollars in a locale: 450000 → "$4,500.00" (or "$4,500" with whole). */
export function centsIn(loc: string, cents: number | null | undefined, opts: { whole?: boolean } = {}): string {
  const v = (cents ?? 0) / 100;
  return opts.whole ? numberFormat(loc, 'whole').format(Math.round(v)) : numberFormat(loc, 'cents').format(v);
}
