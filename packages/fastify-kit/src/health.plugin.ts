import type { FastifyInstance, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';

/** @fastify/swagger's flag: kept out of the OpenAPI document (these are for orchestrators, not API users). */
const hidden = { hide: true } as FastifySchema;

/** One dependency readiness depends on: resolves when it answers, throws (or rejects) when it does not. */
export interface HealthCheck {
  name: string;
  check: () => Promise<void>;
}

export interface HealthOptions {
  checks: HealthCheck[];
  /** A check that takes longer than this counts as failed (default 2 s). */
  timeoutMs?: number;
}

export interface HealthState {
  /** From now on /health/ready answers 503 (called on SIGTERM, before the server closes). */
  drain(): void;
  readonly draining: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    health: HealthState;
  }
}

type CheckResult = 'ok' | string;

const within = (promise: Promise<void>, ms: number): Promise<void> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
};

/** Runs every check in parallel: `ok`, or the check's error message. */
export async function runHealthChecks(checks: readonly HealthCheck[], timeoutMs = 2_000): Promise<Record<string, CheckResult>> {
  const results = await Promise.all(
    checks.map(async ({ name, check }) => {
      try {
        await within(Promise.resolve().then(check), timeoutMs);
        return [name, 'ok'] as const;
      } catch (err) {
        return [name, (err as Error)?.message || 'failed'] as const;
      }
    }),
  );
  return Object.fromEntries(results);
}

/**
 * `GET /health/live` (the process answers) and `GET /health/ready` (every check answers, and the server
 * is not draining). Kept out of the OpenAPI document (`hide`): they are for orchestrators, not API users.
 */
async function healthPlugin(app: FastifyInstance, opts: HealthOptions) {
  let draining = false;
  app.decorate('health', {
    drain: () => {
      draining = true;
    },
    get draining() {
      return draining;
    },
  });
  // server.close() (SIGTERM) starts by draining, so a probe during the close sees 503.
  app.addHook('preClose', async () => {
    draining = true;
  });

  app.get('/health/live', { schema: hidden }, async () => ({ status: 'ok' }));
  app.get('/health/ready', { schema: hidden }, async (_request, reply) => {
    const checks = await runHealthChecks(opts.checks, opts.timeoutMs);
    if (draining) checks.draining = 'shutting down';
    const ok = Object.values(checks).every((result) => result === 'ok');
    reply.header('cache-control', 'no-store');
    if (ok) return { status: 'ok', checks };
    return reply.code(503).send({ status: 'unavailable', checks });
  });
}

export default fp(healthPlugin, { name: 'health', fastify: '5.x' });
