import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The only module in @render/db that reads process.env.

type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function postgresUrl(env: Env, name: string): string {
  const value = env[name]?.trim();
  if (!value) throw new ConfigError(`${name} is required`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name} is not a valid URL`);
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(`${name} must be a postgres:// URL, got ${url.protocol}//`);
  }
  if (url.pathname.length <= 1) {
    throw new ConfigError(`${name} must name a database (postgres://…/NAME)`);
  }
  return value;
}

function port(env: Env, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 65_535) {
    throw new ConfigError(`${name} must be a TCP port, got ${JSON.stringify(raw)}`);
  }
  return value;
}

export interface DbConfig {
  databaseUrl: string;
}

export function loadDbConfig(env: Env = process.env): DbConfig {
  return { databaseUrl: postgresUrl(env, 'DATABASE_URL') };
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

export function loadEmbeddedPostgresConfig(env: Env = process.env): EmbeddedPostgresConfig {
  const fromEnv = env.EMBEDDED_PG_DIR?.trim();
  return {
    port: port(env, 'EMBEDDED_PG_PORT', 5440),
    dataDir: path.resolve(fromEnv || path.join(repoRoot, '.data/postgres')),
    dataDirFromEnv: Boolean(fromEnv),
    stateDir: embeddedPostgresStateDir(),
  };
}
