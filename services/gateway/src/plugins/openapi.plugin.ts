import swagger from '@fastify/swagger';
import { NoCredentials, SecuritySchemes } from '@render/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { API_EXAMPLES } from '../docs/api-examples.ts';
import { bodyErrorResponses, optionalDefaults, problemResponses } from '../docs/openapi-document.ts';
import { type OpenApiDoc, withExamples } from '../docs/postman-collection.ts';

/** OpenAPI is generated from the same TypeBox schemas the routes validate with, so it cannot drift. */
async function openapiPlugin(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Render API',
        version: '0.1.0',
        description: [
          'Turn HTML, SVG, charts, code and web pages into images.',
          '',
          'Errors are RFC 9457 problems (`application/problem+json`) that keep the API’s `success: false`, `message` and `code`, with the request’s `requestId` and, for a refused body, every refused field in `errors`; `type` links to the code on the docs’ errors page. Every answer carries `X-Request-Id` (send your own, up to 128 characters of `A-Za-z0-9._~:+/=@-`, to trace a call). The calls that create something take an `Idempotency-Key` header (a retry within 24 h gets the first answer). `output` and `outputType` are one field: every convert call accepts either. JSON, SVG and text answers are compressed (gzip, brotli) when `Accept-Encoding` allows.',
        ].join('\n'),
      },
      tags: [
        { name: 'convert', description: 'Synchronous render calls' },
        { name: 'templates', description: 'SVG templates with variables' },
        { name: 'renders', description: 'Async renders (convert calls with `webhook`) and their webhook deliveries' },
        { name: 'batches', description: 'Up to 50 renders of any kind in one call: status per item, a zip of the images, one webhook' },
        { name: 'mcp', description: 'The render tools for AI assistants (Model Context Protocol, streamable HTTP)' },
        { name: 'auth', description: 'Accounts, sessions and API keys' },
        { name: 'billing', description: 'Plans and subscriptions' },
        { name: 'admin', description: 'Platform overview (administrators)' },
        { name: 'system', description: 'Health and this document' },
      ],
      components: { securitySchemes: SecuritySchemes },
    },
    // The schemas carry their defaults, which the server fills in: such fields are optional to a client.
    // Every body can also be refused before its route runs (bad JSON, too large, not JSON). Errors are RFC 9457
    // problems (application/problem+json).
    // Each body carries the example call the docs page and the Postman collections show (lib/api-examples.ts).
    transformObject: (documentObject) => {
      const document = problemResponses(
        bodyErrorResponses(
          optionalDefaults('openapiObject' in documentObject ? documentObject.openapiObject : documentObject.swaggerObject),
        ),
      );
      return withExamples(document as unknown as OpenApiDoc, API_EXAMPLES) as unknown as typeof document;
    },
  });
  app.get('/api/openapi.json', { schema: { tags: ['system'], summary: 'This OpenAPI 3.1 document', security: NoCredentials } }, async () =>
    app.swagger(),
  );
}

export default fp(openapiPlugin, { name: 'openapi', fastify: '5.x' });
