import { locale } from './i18n';
/** Dates: the API speaks YYYY-MM-DD, people type MM/DD/YYYY. */

export interface DayDate {
  y: number;
  m: number;
  d: number;
}

function valid(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1 || y < 1900 || y > 2099) return false;
  const dt = new Date(Date.UTC(y, m - 1, d));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === m - 1 && dt.getUTCDate() === d;
}

/** parseUsDate reads MM/DD/YYYY, MM/YYYY or MM/YY (day 1 for the short forms). */
export function parseUsDate(text: string): DayDate | null {
  const s = text.trim();
  let m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s);
  if (m) {
    const r = { m: Number(m[1]), d: Number(m[2]), y: Number(m[3]) };
    return valid(r.y, r.m, r.d) ? r : null;
  }
  m = /^(\d{1,2})\/(\d{4}|\d{2})$/.exec(s);
  if (m) {
    const yy = m[2]!.length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
    const r = { m: Number(m[1]), d: 1, y: yy };
    return valid(r.y, r.m, r.d) ? r : null;
  }
  return null;
}

export function parseIsoDate(text: string): DayDate | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (!m) return null;
  const r = { y: Number(m[1]), m: Number(m[2]), d: Number(m[3]) };
  return valid(r.y, r.m, r.d) ? r : null;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

export function toIso(d: DayDate): string {
  return `${pad(d.y, 4)}-${pad(d.m)}-${pad(d.d)}`;
}

export function toUs(d: DayDate): string {
  return `${pad(d.m)}/${pad(d.d)}/${pad(d.y, 4)}`;
}

export function today(now: Date = new Date()): DayDate {
  return { y: now.getFullYear(), m: now.getMonth() + 1, d: now.getDate() };
}

export function compareDays(a: DayDate, b: DayDate): number {
  return a.y - b.y || a.m - b.m || a.d - b.d;
}

/** ageOn counts whole years from birth to the given day (start of day). */
export function ageOn(birth: DayDate, on: DayDate): number {
  let age = on.y - birth.y;
  if (on.m < birth.m || (on.m === birth.m && on.d < birth.d)) age--;
  return age;
}

/**
 * maskUsDate shapes what is typed into a date field as MM/DD/YYYY (docs/behaviour.md,
 * "Validation"): digits only, the slashes added as the patient types (a
 * numeric keypad has none), a month of 01–12 and a day of 01–31 — a first
 * digit that can only start a one-digit month or day gets its 0. Typing
 * MM/YYYY or MM/YY works too: the month and year read as a day and year
 * here, and normalizeUsDate puts them right when the field is left.
 * deleting (the value got shorter) never adds a slash back, so Backspace
 * gets past one.
 */
export function maskUsDate(typed: string, deleting = false): string {
  const segs: string[] = [''];
  const limits = [12, 31];
  for (const c of typed.replace(/[^\d/]/g, '')) {
    const i = segs.length - 1;
    const seg = segs[i]!;
    if (c === '/') {
      if (i < 2 && seg !== '') {
        segs[i] = seg.padStart(2, '0');
        segs.push('');
      }
      continue;
    }
    if (i === 2) {
      if (seg.length < 4) segs[i] = seg + c;
      continue;
    }
    const limit = limits[i]!;
    if (seg === '') {
      if (Number(c) * 10 > limit) {
        segs[i] = `0${c}`; // 4–9 (2–9 for a month) can only be a one-digit day (month)
        segs.push('');
      } else segs[i] = c;
      continue;
    }
    const two = Number(seg + c);
    if (two >= 1 && two <= limit) {
      segs[i] = seg + c;
      segs.push('');
    }
  }
  let out = segs.join('/');
  if (deleting && out.endsWith('/') && !typed.endsWith('/')) out = out.slice(0, -1);
  return out;
}

/**
 * normalizeUsDate drops a trailing slash and reads a left field's MM/DD/YY as MM/YYYY when the last
 * four digits make a year this product accepts (03/20/24 was 03/2024
 * typed on a keypad): the full date needs a four-digit year, so nothing
 * else could have been meant. Anything else is kept as typed.
 */
export function normalizeUsDate(typed: string): string {
  // A slash the mask added after a last segment nobody typed on: 03/24/ is 03/24.
  const s = typed.trim().replace(/\/$/, '');
  const m = /^(\d{2})\/(\d{2})\/(\d{2})$/.exec(s);
  if (!m) return s;
  const year = Number(m[2]! + m[3]!);
  return year >= 1900 && year <= 2099 ? `${m[1]}/${m[2]}${m[3]}` : s;
}

/** formatLongDate shows a calendar date in the app's language: "March 3, 2026" or "3 de marzo de 2026". */
export function formatLongDate(d: Date): string {
  return d.toLocaleDateString(locale(), { year: 'numeric', month: 'long', day: 'numeric' });
}

/** formatShortDate shows a calendar date with a short month in the app's language: "Dec 21, 2026" or "21 dic 2026". */
export function formatShortDate(d: Date): string {
  return d.toLocaleDateString(locale(), { year: 'numeric', month: 'short', day: 'numeric' });
}

/** formatClockTime shows a time of day in the app's language: "3:05 PM" or "3:05 p.m.". */
export function formatClockTime(d: Date): string {
  return d.toLocaleTimeString(locale(), { hour: 'numeric', minute: '2-digit' });
}
