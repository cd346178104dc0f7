import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@render/config';
import { Type } from 'typebox';

// @render/db's settings, validated by @render/config like every service's (its ConfigError, all problems at
// once). The environment comes in as an argument: only the CLIs, the package's entry points, hand over
// the process's own; nothing else here reads it.

type Env = Record<string, string | undefined>;

/** postgres:// or postgresql://, naming a database (postgres://…/NAME). */
export const DatabaseUrl = Type.String({
  pattern: '^postgres(ql)?://[^/?#]*/[^/?#]+',
  description: 'postgres://user:password@host:port/database',
});

export const DbConfigSchema = Type.Object({ DATABASE_URL: DatabaseUrl });

export const EmbeddedPostgresConfigSchema = Type.Object({
  EMBEDDED_PG_PORT: Type.Integer({ minimum: 1, maximum: 65_535, default: 5440 }),
  /** The cluster's data directory; see EmbeddedPostgresConfig.dataDir. */
  EMBEDDED_PG_DIR: Type.Optional(Type.String()),
});

export interface DbConfig {
  databaseUrl: string;
}

export function loadDbConfig(env: Env): DbConfig {
  return { databaseUrl: loadConfig(DbConfigSchema, env).DATABASE_URL };
}

export interface EmbeddedPostgresConfig {
  port: number;
  /** Cluster data directory (initdb target): EMBEDDED_PG_DIR, else `<repo>/.data/postgres`. */
  dataDir: string;
  /** Whether EMBEDDED_PG_DIR chose dataDir (then it is used as given, never moved). */
  dataDirFromEnv: boolean;
  /**
   * Per-checkout directory outside the checkout, for when Postgres runs as the postgres OS user
   * (i.e. we are root) and that user cannot enter the checkout: it then holds a copy of the
   * binaries and, unless EMBEDDED_PG_DIR is set, the cluster (`data/`).
   */
  stateDir: string;
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Root-owned (0755), so no other local user can plant or swap anything in it. */
export const EMBEDDED_PG_STATE_ROOT = '/var/lib/render-pg';

/** `/var/lib/render-pg/<hash of the checkout's path>`: one per checkout, stable across runs. */
export function embeddedPostgresStateDir(checkout: string = repoRoot): string {
  return path.join(EMBEDDED_PG_STATE_ROOT, createHash('sha256').update(path.resolve(checkout)).digest('hex').slice(0, 16));
}

export function loadEmbeddedPostgresConfig(env: Env): EmbeddedPostgresConfig {
  const { EMBEDDED_PG_PORT, EMBEDDED_PG_DIR } = loadConfig(EmbeddedPostgresConfigSchema, env);
  const fromEnv = EMBEDDED_PG_DIR?.trim();
  return {
    port: EMBEDDED_PG_PORT,
    dataDir: path.resolve(fromEnv || path.join(repoRoot, '.data/postgres')),
    dataDirFromEnv: Boolean(fromEnv),
    stateDir: embeddedPostgresStateDir(),
  };
}
