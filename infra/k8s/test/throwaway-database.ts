import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

// pg from @render/db's own dependencies (this package has no database dependency of its own).
interface PgClient {
  connect(): Promise<void>;
  query(sql: string): Promise<unknown>;
  escapeIdentifier(name: string): string;
  end(): Promise<void>;
}
const pg = createRequire(path.join(ROOT, 'packages/db/package.json'))('pg') as {
  Client: new (opts: { connectionString: string }) => PgClient;
};

async function asAdmin(adminUrl: string, fn: (admin: PgClient) => Promise<unknown>): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await fn(admin);
  } finally {
    await admin.end();
  }
}

/** An empty database on the server of `adminUrl` (TEST_DATABASE_URL), named `<label>_<random>`; `drop()` forgets it. */
export async function createThrowawayDatabase(adminUrl: string, label: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${label}_${randomBytes(6).toString('hex')}`;
  await asAdmin(adminUrl, (admin) => admin.query(`create database ${admin.escapeIdentifier(name)}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => asAdmin(adminUrl, (admin) => admin.query(`drop database if exists ${admin.escapeIdentifier(name)} with (force)`)),
  };
}
