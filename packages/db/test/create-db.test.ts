import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDb } from '../src/index.ts';

const adminUrl = process.env.TEST_DATABASE_URL;
if (!adminUrl) throw new Error('TEST_DATABASE_URL is required (run the tests through ./scripts/test)');

const admin = new pg.Client({ connectionString: adminUrl });
beforeAll(() => admin.connect());
afterAll(() => admin.end());

it('survives a connection that dies while checked out between two statements, and reconnects', async () => {
  // Postgres restarting mid-transaction: the client is checked out but idle when its connection ends. The
  // pool does not listen to such a client; without a listener of our own its 'error' ends the process.
  const poolErrors: string[] = [];
  const db = createDb(adminUrl, { poolSize: 1, onPoolError: (err) => poolErrors.push(err.message) });
  try {
    const failed = await db
      .transaction()
      .execute(async (trx) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
        await admin.query('select pg_terminate_backend($1)', [rows[0]?.pid]);
        // Let the termination arrive while nothing runs on the connection.
        await new Promise((resolve) => setTimeout(resolve, 300));
        await sql`select 1`.execute(trx);
      })
      .then(
        () => false,
        () => true,
      );
    expect(failed).toBe(true);
    expect(poolErrors.some((message) => /terminat/i.test(message))).toBe(true);
    // The dead client was dropped at release: the next query gets a new connection.
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(db);
    expect(rows[0]?.one).toBe(1);
  } finally {
    await db.destroy();
  }
});
