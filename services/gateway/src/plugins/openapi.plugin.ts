import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** OpenAPI is generated from the same TypeBox schemas the routes validate with, so it cannot drift. */
async function openapiPlugin(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Render API',
        version: '0.1.0',
        description: 'Turn HTML, SVG, charts, code and web pages into images.',
      },
      tags: [
        { name: 'convert', description: 'Synchronous render calls' },
        { name: 'system', description: 'Health' },
      ],
    },
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

export default fp(openapiPlugin, { name: 'openapi', fastify: '5.x' });
