import { formatShortDate } from '@/lib/dates';
import { t } from '@/lib/i18n';

/** offerExpiry gives "Offer Exp: Dec 21, 2026 (30 days)", in the app's language. */
export function offerExpiry(expire: string | undefined, now: Date = new Date(), fallbackDays = 30): string {
  let date: Date;
  if (expire) {
    date = new Date(expire);
    if (Number.isNaN(date.getTime())) date = new Date(now.getTime() + fallbackDays * 86400000);
  } else date = new Date(now.getTime() + fallbackDays * 86400000);
  const startOfToday = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  const startOfExp = new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
  const days = Math.max(0, Math.round((startOfExp - startOfToday) / 86400000));
  return t('offers.expiry', { date: formatShortDate(date), count: days });
}
