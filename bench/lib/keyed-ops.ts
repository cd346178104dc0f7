/**
 * What one render with an API key costs the datastores: Redis commands (INFO commandstats, scripts' inner
 * calls included) and Postgres transactions and rows, over a fixed number of renders through the gateway,
 * net of the background traffic measured in an idle window just before.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { diffPostgresStats, type PostgresDiff, readPostgresStats } from './postgres-stats.ts';
import { diffRedisStats, type RedisDiff, readRedisStats } from './redis-stats.ts';
import { convertClient, htmlRequest } from './stack.ts';

export interface KeyedOps {
  caller: string;
  renders: number;
  errors: number;
  /** Failed renders by message. */
  errorMessages: Map<string, number>;
  rendersPerSec: number;
  redis: RedisDiff;
  postgres: PostgresDiff;
  /** Background per second (no renders), already subtracted from `redis.total` and `postgres.transactions`. */
  idle: { redisPerSec: number; transactionsPerSec: number };
}

export interface KeyedOpsOptions {
  gatewayPort: number;
  apiKey: string;
  caller: string;
  renders: number;
  concurrency: number;
  redisUrl: string;
  databaseUrl: string;
  idleMs: number;
}

/** Settling runs in small batches after the answers, and Postgres flushes its counts within a second. */
const QUIET_MS = 2_500;

const readBoth = (o: KeyedOpsOptions) => Promise.all([readRedisStats(o.redisUrl), readPostgresStats(o.databaseUrl)]);

export async function measureKeyedOps(o: KeyedOpsOptions): Promise<KeyedOps> {
  const client = convertClient(o.gatewayPort, o.concurrency, { ...htmlRequest, headers: { 'x-api-key': o.apiKey } });
  try {
    // Warm: the key's identity and credit lease cached, the pages used once.
    await renderMany(client.convert, 20, o.concurrency, new Map());
    await sleep(QUIET_MS);
    const [idleRedis, idlePg] = await readBoth(o);
    await sleep(o.idleMs);
    const [redisBefore, pgBefore] = await readBoth(o);
    const idleRedisDiff = diffRedisStats(redisBefore, idleRedis);
    const idlePgDiff = diffPostgresStats(pgBefore, idlePg);
    const idle = { redisPerSec: idleRedisDiff.total / (o.idleMs / 1000), transactionsPerSec: idlePgDiff.transactions / (o.idleMs / 1000) };

    const started = Date.now();
    const errorMessages = new Map<string, number>();
    const errors = await renderMany(client.convert, o.renders, o.concurrency, errorMessages);
    const elapsedMs = Date.now() - started;
    await sleep(QUIET_MS);
    const [redisAfter, pgAfter] = await readBoth(o);
    const windowSec = (elapsedMs + QUIET_MS) / 1000;
    const redis = diffRedisStats(redisAfter, redisBefore);
    const postgres = diffPostgresStats(pgAfter, pgBefore);
    return {
      caller: o.caller,
      renders: o.renders - errors,
      errors,
      errorMessages,
      rendersPerSec: (o.renders - errors) / (elapsedMs / 1000),
      redis: { ...redis, total: Math.max(0, redis.total - idle.redisPerSec * windowSec) },
      postgres: { ...postgres, transactions: Math.max(0, postgres.transactions - idle.transactionsPerSec * windowSec) },
      idle,
    };
  } finally {
    client.close();
  }
}

/** `count` renders over `concurrency` clients; the number that failed (their messages counted in `messages`). */
async function renderMany(
  convert: () => Promise<unknown>,
  count: number,
  concurrency: number,
  messages: Map<string, number>,
): Promise<number> {
  let left = count;
  let failed = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (left > 0) {
        left -= 1;
        await convert().catch((err: Error) => {
          failed += 1;
          messages.set(err.message, (messages.get(err.message) ?? 0) + 1);
        });
      }
    }),
  );
  return failed;
}
