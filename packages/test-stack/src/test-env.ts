import { loadConfig } from '@render/config';
import { Type } from 'typebox';

/**
 * The environment the test stacks read, validated once (the one place in this package that reads it).
 * scripts/test sets the URLs; the others tune a run.
 */
const TestEnvSchema = Type.Object({
  /** Postgres the suites create their own databases in (required where a stack needs one). */
  TEST_DATABASE_URL: Type.Optional(Type.String({ minLength: 1 })),
  /** Redis for the queues; without it a throwaway container where Docker exists. */
  TEST_REDIS_URL: Type.Optional(Type.String({ minLength: 1 })),
  /** The services' log level in tests (quiet unless asked). */
  TEST_LOG_LEVEL: Type.Optional(Type.String({ minLength: 1 })),
  /** Chromium for the workers (scripts/lib/setup.sh exports it). */
  CHROMIUM_PATH: Type.Optional(Type.String({ minLength: 1 })),
  /** Services to CPU-profile in bench runs ("gateway,auth" or "all"), and where the profiles go. */
  BENCH_CPU_PROF: Type.String({ default: '' }),
  BENCH_CPU_PROF_DIR: Type.Optional(Type.String({ minLength: 1 })),
});

export const testEnv = loadConfig(TestEnvSchema, process.env);

/** What child processes inherit (PATH, HOME, locale…), to which each stack adds its own settings. */
export const inheritedEnv = (): NodeJS.ProcessEnv => ({ ...process.env });
