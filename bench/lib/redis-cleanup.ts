import { connectRedis, onReplyLines, resp } from './redis-wire.ts';

// Runs inside Redis so a whole prefix goes in one round trip, with no Redis client dependency in the bench.
const DELETE_PREFIX = `
local cursor, n = '0', 0
repeat
  local r = redis.call('SCAN', cursor, 'MATCH', ARGV[1], 'COUNT', 1000)
  cursor = r[1]
  for _, key in ipairs(r[2]) do redis.call('UNLINK', key); n = n + 1 end
until cursor == '0'
return n`;

/**
 * Deletes every key of a bench run's queue prefix (BullMQ meta, event streams, leftover results), so
 * repeated runs do not accumulate garbage in a shared dev Redis. Returns the number of keys removed.
 */
export function deleteKeysWithPrefix(redisUrl: string, prefix: string): Promise<number> {
  const url = new URL(redisUrl);
  const commands: string[][] = [];
  if (url.password)
    commands.push(
      url.username
        ? ['AUTH', decodeURIComponent(url.username), decodeURIComponent(url.password)]
        : ['AUTH', decodeURIComponent(url.password)],
    );
  const db = url.pathname.replace(/^\//, '');
  if (db) commands.push(['SELECT', db]);
  commands.push(['EVAL', DELETE_PREFIX, '0', `${prefix}:*`]);

  return new Promise((resolve, reject) => {
    const socket = connectRedis(url);
    socket.setTimeout(5_000, () => socket.destroy(new Error('redis cleanup timed out')));
    let replies = 0;
    socket.on('connect', () => socket.write(commands.map(resp).join('')));
    onReplyLines(socket, (line) => {
      if (line.startsWith('-')) {
        socket.destroy();
        reject(new Error(`redis: ${line.slice(1)}`));
        return 'stop';
      }
      replies += 1;
      if (replies === commands.length) {
        socket.end();
        resolve(Number(line.slice(1)));
        return 'stop';
      }
    });
    socket.on('error', reject);
  });
}
