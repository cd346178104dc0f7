import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createRepositories, type Repositories } from './repositories/repositories.ts';

declare module 'fastify' {
  interface FastifyInstance {
    repositories: Repositories;
  }
}

/**
 * The repositories over the `db` plugin's pool, made once per service instead of in every route and
 * plugin. Nothing to close: the pool belongs to `db`, which closes it.
 */
async function repositoriesPlugin(app: FastifyInstance) {
  app.decorate('repositories', createRepositories(app.db));
}

export default fp(repositoriesPlugin, { name: 'repositories', fastify: '5.x', dependencies: ['db'] });
