import { randomBytes } from 'node:crypto';
import pg from 'pg';

// scripts/test always sets this (to the embedded or the given Postgres); fail
// loudly rather than skip, so a misconfigured run cannot pass by testing nothing.
const adminUrl = process.env.TEST_DATABASE_URL;
if (!adminUrl) throw new Error('TEST_DATABASE_URL is required (run the tests through ./scripts/test)');

export interface ThrowawayDatabase {
  url: string;
  /** Drops the database (with force: connections still open are ended) and closes the admin connection. */
  drop(): Promise<void>;
}

/**
 * An empty database of its own on the test server: a run never touches dev data, and parallel runs against
 * one server cannot collide.
 */
export async function createThrowawayDatabase(): Promise<ThrowawayDatabase> {
  const databaseName = `render_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${admin.escapeIdentifier(databaseName)}`);
  const url = new URL(adminUrl as string);
  url.pathname = `/${databaseName}`;
  return {
    url: url.toString(),
    async drop() {
      await admin.query(`drop database if exists ${admin.escapeIdentifier(databaseName)} with (force)`);
      await admin.end();
    },
  };
}
