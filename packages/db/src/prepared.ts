import { CompiledQuery, type Kysely, type QueryResult } from 'kysely';
import type { DB } from './schema.ts';

/**
 * A statement each pooled connection parses and plans only once (a named prepared statement), for the few
 * that every billed render runs, where parsing and planning cost Postgres more than running them (a
 * reservation: ~150 µs of Postgres CPU instead of ~380). Runs on `db` as given, so inside a transaction on
 * its connection. Kysely hands a compiled query's `sql` to node-postgres untouched, and node-postgres takes
 * a query config ({ name, text }) in its place; `values` are bound by position ($1, $2…). The text must
 * stay the same for a name (node-postgres refuses another text under a name it has prepared).
 */
export function preparedStatement<Row>(name: string, text: string) {
  return (db: Kysely<DB>, values: readonly unknown[]): Promise<QueryResult<Row>> =>
    db.executeQuery<Row>(CompiledQuery.raw({ name, text } as unknown as string, [...values]));
}
