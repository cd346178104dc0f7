import { createRedis } from '@render/queue';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Tells every gateway replica that an account may have changed (a key regenerated, a plan or role changed,
 * an account deleted), so that what they keep about API keys between calls (`identity`'s leases) is dropped
 * at once. The replica that forwarded the change publishes before it answers, so the caller's next call, on
 * any replica, no longer finds anything kept for the old key.
 *
 * A replica whose subscription is not live cannot know what it missed: it tells its listeners whenever the
 * subscription drops, and they keep nothing meanwhile (`live`).
 */
export interface AccountChanges {
  /** Publishes a change (awaited: a forwarded change is answered only once every replica is told). */
  publish(): Promise<void>;
  /** Called on every change, and whenever the subscription drops (a change may be missed meanwhile). */
  onChange(listener: () => void): void;
  /** Whether changes are being received now; while not, nothing may be kept about keys. */
  live(): boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    accountChanges: AccountChanges;
  }
}

export interface AccountChangesOptions {
  redisUrl: string;
  /** The queue prefix: the channel is `<prefix>:account-changes`. */
  prefix: string;
}

async function accountChangesPlugin(app: FastifyInstance, opts: AccountChangesOptions) {
  const channel = `${opts.prefix}:account-changes`;
  const listeners: Array<() => void> = [];
  const notify = () => {
    for (const listener of listeners) listener();
  };
  let subscribed = false;
  const subscriber = createRedis(opts.redisUrl, 'blocking', 'gateway-account-changes');
  subscriber.on('message', notify);
  // ioredis re-subscribes by itself after a reconnect; what was published meanwhile is lost, so the
  // listeners drop everything when the connection goes, and nothing is kept until it is back.
  subscriber.on('close', () => {
    if (subscribed) notify();
    subscribed = false;
  });
  subscriber.on('ready', () => {
    subscriber.subscribe(channel).then(
      () => {
        subscribed = true;
      },
      (err: Error) => app.log.warn({ err: err.message }, 'account-changes subscribe failed'),
    );
  });
  await Promise.race([
    new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (subscribed) {
          clearInterval(check);
          resolve();
        }
      }, 10);
      check.unref();
    }),
    new Promise((resolve) => setTimeout(resolve, 1_000).unref()),
  ]);

  app.decorate('accountChanges', {
    async publish() {
      // Every replica, this one included, hears it on its subscription; this one also drops its own at once
      // (its message may come a moment after the answer).
      notify();
      await app.redis.publish(channel, '1');
    },
    onChange(listener: () => void) {
      listeners.push(listener);
    },
    live: () => subscribed && subscriber.status === 'ready',
  } satisfies AccountChanges);
  app.addHook('onClose', async () => {
    subscribed = false;
    subscriber.disconnect();
  });
}

export default fp(accountChangesPlugin, { name: 'account-changes', dependencies: ['redis'], fastify: '5.x' });
