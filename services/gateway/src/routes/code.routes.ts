import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CodeCatalogResponse, CodeConvertBody, NoCredentials, SignedInOrAnonymous } from '@render/contracts';
import { codeCatalog } from '../lib/code-catalog.ts';
import { prepareCodePayload } from '../lib/code-request.ts';
import { imageResponses, sendImage } from '../lib/image-reply.ts';

const codeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/api/code-to-img/convert',
    {
      // Credentials (or the anonymous per-IP limit) are checked before the body is even parsed.
      onRequest: app.accountClient.identify,
      schema: {
        tags: ['convert'],
        security: SignedInOrAnonymous,
        summary: 'Render highlighted source code to PNG, JPEG or WebP',
        description:
          'The image is the code window itself: the theme background with rounded corners (transparent outside them in PNG ' +
          'and WebP, filled with the theme background in JPEG). Height fits the code unless `height` is given (then the code ' +
          `is cropped or the window padded); long lines wrap. Auto height is limited to 16,000 image pixels and the ` +
          'width × height × scale² pixel budget.',
        body: CodeConvertBody,
        response: imageResponses(['png', 'jpeg', 'webp']),
      },
    },
    async (request, reply) => {
      const payload = prepareCodePayload(request.body);
      const outcome = await app.accountClient.renderBilled(request, 'code', payload);
      return sendImage(reply, outcome, request.body.outputType);
    },
  );

  app.get(
    '/api/code-to-img/languages',
    {
      schema: {
        tags: ['convert'],
        security: NoCredentials,
        summary: 'Languages and themes accepted by the code renderer',
        response: { 200: CodeCatalogResponse },
      },
    },
    async (_request, reply) => {
      // The list only changes with a deploy.
      reply.header('Cache-Control', 'public, max-age=3600');
      return codeCatalog();
    },
  );
};

export default codeRoutes;
