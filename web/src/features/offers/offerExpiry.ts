const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** offerExpiry gives "Offer Exp: Dec 21, 2026 (30 days)". */
export function offerExpiry(expire: string | undefined, now: Date = new Date(), fallbackDays = 30): string {
  let date: Date;
  if (expire) {
    date = new Date(expire);
    if (Number.isNaN(date.getTime())) date = new Date(now.getTime() + fallbackDays * 86400000);
  } else date = new Date(now.getTime() + fallbackDays * 86400000);
  const startOfToday = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  const startOfExp = new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
  const days = Math.max(0, Math.round((startOfExp - startOfToday) / 86400000));
  return `Offer Exp: ${months[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()} (${days} day${days === 1 ? '' : 's'})`;
}
