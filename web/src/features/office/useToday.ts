import { useEffect, useState } from 'react';
import { today, toIso } from '@/lib/dates';

/**
 * useToday is today's date (YYYY-MM-DD, the browser's zone), which moves on
 * at midnight: a screen left open overnight at the front desk shows the new
 * day's list in the morning, not yesterday's.
 */
export function useToday(): string {
  const [day, setDay] = useState(() => toIso(today()));
  useEffect(() => {
    const now = new Date();
    const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1, 0, 0, 1);
    const t = setTimeout(() => setDay(toIso(today())), midnight.getTime() - now.getTime());
    return () => clearTimeout(t);
  }, [day]);
  return day;
}
