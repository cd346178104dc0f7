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
  /** Cluster data directory (initdb target). */
  dataDir: string;
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export function loadEmbeddedPostgresConfig(env: Env = process.env): EmbeddedPostgresConfig {
  const dataDir = env.EMBEDDED_PG_DIR?.trim() || path.join(repoRoot, '.data/postgres');
  return {
    port: port(env, 'EMBEDDED_PG_PORT', 5440),
    dataDir: path.resolve(dataDir),
  };
}
