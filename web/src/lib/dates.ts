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
