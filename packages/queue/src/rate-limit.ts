import { type BucketTake, bucketState, type TokenBucketStore } from '@render/contracts';
import type { Redis } from 'ioredis';

// Token buckets per key, refilled continuously, kept in one Redis hash per key (fields t<i>, a<i>: bucket i's
// tokens and when they were counted) so every gateway replica draws from the same buckets, and one key keeps
// the script on one Redis Cluster slot. The clock is Redis' own (TIME), so replicas with skewed clocks still
// agree. All or nothing: the units are taken from every bucket, or from none when one has too few. Answers
// the verdict and each bucket's tokens (as strings: Lua would truncate numbers to integers).
// KEYS[1] the hash; ARGV[1] the units, ARGV[2] the hash's TTL (ms), then per bucket: capacity, refill per ms.
const TAKE_SCRIPT = `
local units = tonumber(ARGV[1])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local count = (#ARGV - 2) / 2
local tokens = {}
local allowed = 1
for i = 1, count do
  local capacity = tonumber(ARGV[1 + 2 * i])
  local refill = tonumber(ARGV[2 + 2 * i])
  local state = redis.call('HMGET', KEYS[1], 't' .. i, 'a' .. i)
  local level = tonumber(state[1]) or capacity
  local at = tonumber(state[2]) or now
  level = math.min(capacity, level + math.max(0, now - at) * refill)
  tokens[i] = level
  if level < units then allowed = 0 end
end
local out = { allowed }
for i = 1, count do
  if allowed == 1 then tokens[i] = tokens[i] - units end
  redis.call('HSET', KEYS[1], 't' .. i, tostring(tokens[i]), 'a' .. i, tostring(now))
  out[i + 1] = tostring(tokens[i])
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return out
`;

type TakeCommand = (key: string, ...args: (number | string)[]) => Promise<[number, ...string[]]>;

/** One bucket: `capacity` units, refilled completely within `windowMs`. */
export interface BucketLimit {
  capacity: number;
  windowMs: number;
}

/**
 * Token buckets shared by every process that uses the same Redis and prefix (the cluster-wide version of
 * fastify-kit's in-memory TokenBuckets): several limits per key (e.g. per minute and per day), taken in one
 * script call. Keys left alone refill completely within the longest window and then expire, so idle keys
 * cost nothing.
 */
export class RedisTokenBuckets implements TokenBucketStore {
  private readonly signature: string;
  private readonly ttlMs: number;

  constructor(
    private readonly redis: Redis,
    /** Key prefix, e.g. `${QUEUE_PREFIX}:rl:anon`. The limits are part of the key, so replicas configured differently never share a bucket. */
    private readonly prefix: string,
    readonly limits: readonly BucketLimit[],
  ) {
    if (limits.length === 0) throw new Error('RedisTokenBuckets needs at least one limit');
    this.signature = limits.map((l) => `${l.capacity}/${l.windowMs}`).join(',');
    this.ttlMs = Math.max(...limits.map((l) => l.windowMs));
  }

  /**
   * Takes `units` from every bucket of `key`, or from none when one has fewer; answers each bucket's state
   * (in the order of `limits`). Rejects when Redis cannot answer.
   */
  async take(key: string, units = 1): Promise<BucketTake> {
    const redis = this.redis as Redis & { renderTakeTokens?: TakeCommand };
    // Defined once per connection: ioredis then sends EVALSHA, not the script text, on every call.
    if (!redis.renderTakeTokens) redis.defineCommand('renderTakeTokens', { numberOfKeys: 1, lua: TAKE_SCRIPT });
    const take = redis.renderTakeTokens as TakeCommand;
    const args = this.limits.flatMap((l) => [l.capacity, l.capacity / l.windowMs]);
    const [allowed, ...levels] = await take.call(redis, `${this.prefix}:${this.signature}:${key}`, units, this.ttlMs, ...args);
    const ok = allowed === 1;
    return {
      allowed: ok,
      buckets: this.limits.map((l, i) => {
        const state = bucketState(Number(levels[i]), l.capacity, l.capacity / l.windowMs, ok, units);
        // A refusal reports, per bucket, whether that bucket alone had enough.
        return ok
          ? state
          : { ...state, allowed: Number(levels[i]) >= units, retryAfterMs: Number(levels[i]) >= units ? 0 : state.retryAfterMs };
      }),
    };
  }
}
