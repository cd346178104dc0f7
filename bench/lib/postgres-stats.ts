/**
 * What a stretch of load cost Postgres, from its cumulative statistics views: transactions on the database
 * (`pg_stat_database`; every statement outside an explicit transaction is one) and, per table, index and
 * sequential scans and rows inserted, updated and deleted (`pg_stat_user_tables`). Backends flush their
 * counts at most once a second (PostgreSQL 15+), so read after the load has been quiet for over a second.
 */
import pg from 'pg';

export interface TableStats {
  scans: number;
  inserted: number;
  updated: number;
  deleted: number;
}

export interface PostgresStats {
  transactions: number;
  tables: Map<string, TableStats>;
}

/** Statements a reading itself adds to `transactions` (its two selects; the clear-snapshot call is a third). */
export const READING_TRANSACTIONS = 3;

export async function readPostgresStats(databaseUrl: string): Promise<PostgresStats> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('select pg_stat_clear_snapshot()');
    const db = await client.query<{ transactions: string }>(
      'select xact_commit + xact_rollback as transactions from pg_stat_database where datname = current_database()',
    );
    const rows = await client.query<{ relname: string; scans: string; inserted: string; updated: string; deleted: string }>(
      `select relname, coalesce(seq_scan, 0) + coalesce(idx_scan, 0) as scans, n_tup_ins as inserted,
              n_tup_upd as updated, n_tup_del as deleted
         from pg_stat_user_tables`,
    );
    const tables = new Map<string, TableStats>();
    for (const r of rows.rows)
      tables.set(r.relname, {
        scans: Number(r.scans),
        inserted: Number(r.inserted),
        updated: Number(r.updated),
        deleted: Number(r.deleted),
      });
    return { transactions: Number(db.rows[0]?.transactions ?? 0), tables };
  } finally {
    await client.end();
  }
}

export interface PostgresDiff {
  transactions: number;
  /** Tables that moved, busiest first. */
  tables: Array<[string, TableStats]>;
}

/** What happened between two readings; the first reading's own statements are left out. */
export function diffPostgresStats(after: PostgresStats, before: PostgresStats): PostgresDiff {
  const tables: Array<[string, TableStats]> = [];
  for (const [name, a] of after.tables) {
    const b = before.tables.get(name) ?? { scans: 0, inserted: 0, updated: 0, deleted: 0 };
    const d = {
      scans: a.scans - b.scans,
      inserted: a.inserted - b.inserted,
      updated: a.updated - b.updated,
      deleted: a.deleted - b.deleted,
    };
    if (d.scans || d.inserted || d.updated || d.deleted) tables.push([name, d]);
  }
  const weight = (t: TableStats) => t.scans + t.inserted + t.updated + t.deleted;
  tables.sort((x, y) => weight(y[1]) - weight(x[1]));
  return { transactions: Math.max(0, after.transactions - before.transactions - READING_TRANSACTIONS), tables };
}
