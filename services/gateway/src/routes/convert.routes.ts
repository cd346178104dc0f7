import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError, assertSvgDocument, HtmlConvertBody, SignedInOrAnonymous, SvgConvertBody } from '@render/contracts';
import { assertPixelBudget, imageResponses, sendImage } from '../lib/image-reply.ts';

const convertRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/api/html-to-img/convert',
    {
      // Credentials (or the anonymous per-IP limit) are checked before the body is even parsed.
      onRequest: app.accountClient.identify,
      schema: {
        tags: ['convert'],
        security: SignedInOrAnonymous,
        summary: 'Render HTML to PNG, JPEG or WebP',
        body: HtmlConvertBody,
        response: imageResponses(['png', 'jpeg', 'webp']),
      },
    },
    async (request, reply) => {
      const { output, html, format, width, height, quality, scale } = request.body;
      if (!html.trim()) throw new AppError('VALIDATION_ERROR', 'Please enter some HTML content');
      assertPixelBudget(width, height, scale);
      const outcome = await app.accountClient.renderBilled(request, 'html', { html, format, width, height, quality, scale });
      return sendImage(reply, outcome, output);
    },
  );

  app.post(
    '/api/svg-to-img/convert',
    {
      // Credentials (or the anonymous per-IP limit) are checked before the body is even parsed.
      onRequest: app.accountClient.identify,
      schema: {
        tags: ['convert'],
        security: SignedInOrAnonymous,
        summary: 'Render SVG to PNG, JPEG, WebP or a resized SVG',
        body: SvgConvertBody,
        response: imageResponses(['png', 'jpeg', 'webp', 'svg']),
      },
    },
    async (request, reply) => {
      const { output, svg, format, width, height, quality, transparent } = request.body;
      if (!svg.trim()) throw new AppError('VALIDATION_ERROR', 'Please enter some SVG content');
      assertSvgDocument(svg);
      const outcome = await app.accountClient.renderBilled(request, 'svg', { svg, format, width, height, quality, transparent });
      return sendImage(reply, outcome, output);
    },
  );
};

export default convertRoutes;
