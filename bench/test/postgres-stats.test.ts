import { describe, expect, it } from 'vitest';
import { diffPostgresStats, type PostgresStats, READING_TRANSACTIONS } from '../lib/postgres-stats.ts';

const stats = (transactions: number, tables: Record<string, [number, number, number, number]>): PostgresStats => ({
  transactions,
  tables: new Map(
    Object.entries(tables).map(([name, [scans, inserted, updated, deleted]]) => [name, { scans, inserted, updated, deleted }]),
  ),
});

describe('diffPostgresStats', () => {
  it('subtracts per table, drops tables that did not move, sorts the busiest first and leaves out the reading itself', () => {
    const before = stats(100, { users: [10, 0, 0, 0], credit_ledger: [5, 2, 1, 0], idle: [3, 0, 0, 0] });
    const after = stats(100 + READING_TRANSACTIONS + 40, {
      users: [30, 0, 0, 0],
      credit_ledger: [25, 22, 21, 0],
      idle: [3, 0, 0, 0],
      fresh: [1, 0, 0, 0],
    });
    const diff = diffPostgresStats(after, before);
    expect(diff.transactions).toBe(40);
    expect(diff.tables.map(([name]) => name)).toEqual(['credit_ledger', 'users', 'fresh']);
    expect(diff.tables[0]?.[1]).toEqual({ scans: 20, inserted: 20, updated: 20, deleted: 0 });
  });
});
