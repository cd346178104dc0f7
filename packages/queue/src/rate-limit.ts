import type { Redis } from 'ioredis';

// A token bucket per key, refilled continuously, kept in one Redis hash so every gateway replica draws from
// the same bucket. The clock is Redis' own (TIME), so replicas with skewed clocks still agree.
const TAKE_SCRIPT = `
local capacity = tonumber(ARGV[1])
local refill_per_ms = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or capacity
local at = tonumber(state[2]) or now
tokens = math.min(capacity, tokens + math.max(0, now - at) * refill_per_ms)
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return allowed
`;

type TakeCommand = (key: string, capacity: number, refillPerMs: number, ttlMs: number) => Promise<number>;

/**
 * Token buckets shared by every process that uses the same Redis and prefix (the cluster-wide version of
 * fastify-kit's in-memory TokenBuckets). A bucket left alone refills completely within `windowMs` and then
 * expires, so idle keys cost nothing.
 */
export class RedisTokenBuckets {
  private readonly refillPerMs: number;

  constructor(
    private readonly redis: Redis,
    /** Key prefix, e.g. `${QUEUE_PREFIX}:rl:anon`. The capacity is part of the key, so replicas configured differently never share a bucket. */
    private readonly prefix: string,
    private readonly capacity: number,
    private readonly windowMs: number,
  ) {
    this.refillPerMs = capacity / windowMs;
  }

  /** Takes one token for `key`; false when the bucket is empty. Rejects when Redis cannot answer. */
  async take(key: string): Promise<boolean> {
    const redis = this.redis as Redis & { renderTakeToken?: TakeCommand };
    // Defined once per connection: ioredis then sends EVALSHA, not the script text, on every call.
    if (!redis.renderTakeToken) redis.defineCommand('renderTakeToken', { numberOfKeys: 1, lua: TAKE_SCRIPT });
    const take = redis.renderTakeToken as TakeCommand;
    const allowed = await take.call(redis, `${this.prefix}:${this.capacity}:${key}`, this.capacity, this.refillPerMs, this.windowMs);
    return allowed === 1;
  }
}
