import type { ExpressionBuilder } from 'kysely';

export interface WindowCounts {
  total: number;
  last24h: number;
  last7d: number;
  last30d: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The select list for "how many in total and in the last 1/7/30 days" over a `created_at` column, one
 * aggregate query instead of four; read the row back with `toWindowCounts`.
 */
export function windowCountSelections<DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>, now: Date) {
  const since = (days: number) => new Date(now.getTime() - days * DAY_MS);
  // The column is named the same in every table that uses this; kysely cannot check a generic table's columns.
  const createdAt = 'created_at' as never;
  return [
    eb.fn.countAll<string>().as('total'),
    eb.fn
      .countAll<string>()
      .filterWhere(createdAt, '>=', since(1) as never)
      .as('last24h'),
    eb.fn
      .countAll<string>()
      .filterWhere(createdAt, '>=', since(7) as never)
      .as('last7d'),
    eb.fn
      .countAll<string>()
      .filterWhere(createdAt, '>=', since(30) as never)
      .as('last30d'),
  ] as const;
}

export const toWindowCounts = (row: { total: string; last24h: string; last7d: string; last30d: string }): WindowCounts => ({
  total: Number(row.total),
  last24h: Number(row.last24h),
  last7d: Number(row.last7d),
  last30d: Number(row.last30d),
});
