import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import { createDb } from './create-db.ts';
import type { DB } from './schema.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<DB>;
  }
}

/** The service's Postgres pool. Migrations are run by `pnpm --filter @render/db migrate`, not at boot. */
async function dbPlugin(app: FastifyInstance, opts: { url: string; poolSize?: number }) {
  const db = createDb(opts.url, {
    poolSize: opts.poolSize,
    onPoolError: (error) => app.log.warn({ err: error.message }, 'postgres pool error'),
  });
  app.decorate('db', db);
  app.addHook('onClose', async () => {
    await db.destroy();
  });
}

export default fp(dbPlugin, { name: 'db', fastify: '5.x' });
