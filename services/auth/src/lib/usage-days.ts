import type { DailyRenders } from '@render/db';

const DAY_MS = 24 * 60 * 60 * 1000;
const utcDate = (at: Date) => at.toISOString().slice(0, 10);

/**
 * Every UTC day from `since`'s to `now`'s, oldest first, with the renders `counted` gives it (0 for a day it
 * leaves out). A rolling 30-day window touches 31 calendar days: the first only from `since`, the last
 * (today) so far, so the days add up to the window's renders.
 */
export function dailySeries(since: Date, now: Date, counted: readonly DailyRenders[]): DailyRenders[] {
  const renders = new Map(counted.map((day) => [day.date, day.renders]));
  const days: DailyRenders[] = [];
  const last = utcDate(now);
  for (let at = new Date(`${utcDate(since)}T00:00:00.000Z`); ; at = new Date(at.getTime() + DAY_MS)) {
    const date = utcDate(at);
    days.push({ date, renders: renders.get(date) ?? 0 });
    if (date >= last) return days;
  }
}
