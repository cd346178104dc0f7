import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import dbPlugin from './db.plugin.ts';
import repositoriesPlugin from './repositories.plugin.ts';

/** A service's Postgres: the pool (`fastify.db`) and the repositories over it (`fastify.repositories`). */
export async function registerPostgres(fastify: FastifyInstance, url: string): Promise<void> {
  await fastify.register(dbPlugin, { url });
  await fastify.register(repositoriesPlugin);
}

/** The readiness check of a service that needs Postgres (fastify-kit's `health`): the pool answers a query. */
export const postgresCheck = (fastify: FastifyInstance) => ({
  name: 'postgres',
  check: async () => {
    await sql`select 1`.execute(fastify.db);
  },
});
