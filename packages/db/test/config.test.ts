import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '@render/config';
import { describe, expect, it } from 'vitest';
import { embeddedPostgresStateDir, loadDbConfig, loadEmbeddedPostgresConfig } from '../src/config.ts';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');

describe('loadDbConfig', () => {
  it('accepts a postgres URL that names a database', () => {
    for (const url of ['postgres://u:p@127.0.0.1:5440/render', 'postgresql://host/db?sslmode=require']) {
      expect(loadDbConfig({ DATABASE_URL: url })).toEqual({ databaseUrl: url });
    }
  });

  it("refuses a missing, foreign or database-less URL with @render/config's ConfigError", () => {
    for (const env of [
      {},
      { DATABASE_URL: '' },
      { DATABASE_URL: 'mysql://h/db' },
      { DATABASE_URL: 'postgres://h' },
      { DATABASE_URL: 'postgres://h/' },
    ]) {
      expect(() => loadDbConfig(env)).toThrow(ConfigError);
    }
    expect(() => loadDbConfig({})).toThrow(/DATABASE_URL/);
  });
});

describe('loadEmbeddedPostgresConfig', () => {
  it('defaults to port 5440 and <repo>/.data/postgres, not chosen by EMBEDDED_PG_DIR', () => {
    const config = loadEmbeddedPostgresConfig({});
    expect(config.port).toBe(5440);
    expect(config.dataDir).toBe(path.resolve(src, '../../../.data/postgres'));
    expect(config.dataDirFromEnv).toBe(false);
    expect(config.stateDir).toBe(embeddedPostgresStateDir());
  });

  it('takes EMBEDDED_PG_DIR as given and says so; blank counts as unset', () => {
    const config = loadEmbeddedPostgresConfig({ EMBEDDED_PG_PORT: '5999', EMBEDDED_PG_DIR: '/srv/pg' });
    expect(config).toMatchObject({ port: 5999, dataDir: '/srv/pg', dataDirFromEnv: true });
    expect(loadEmbeddedPostgresConfig({ EMBEDDED_PG_DIR: '  ' }).dataDirFromEnv).toBe(false);
  });

  it('refuses a port that is not a TCP port', () => {
    for (const EMBEDDED_PG_PORT of ['0', '65536', 'five']) {
      expect(() => loadEmbeddedPostgresConfig({ EMBEDDED_PG_PORT })).toThrow(ConfigError);
    }
  });
});

it('only the CLIs (entry points) read process.env, to hand it to the config loaders', () => {
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  expect(files.length).toBeGreaterThan(10);
  const readers = files.filter((f) =>
    /\bprocess\s*\.\s*env\b|\bprocess\s*\[\s*['"]env['"]\s*\]/.test(readFileSync(path.join(src, f), 'utf8')),
  );
  expect(readers.filter((f) => !f.endsWith('.cli.ts'))).toEqual([]);
});
