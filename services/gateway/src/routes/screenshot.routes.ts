import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ScreenshotConvertBody, SignedInOrAnonymous } from '@render/contracts';
import { imageResponses, sendImage } from '../lib/image-reply.ts';
import { screenshotPayload } from '../lib/screenshot-request.ts';

const screenshotRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/api/screenshot/convert',
    {
      // Credentials (or the anonymous per-IP limit) are checked before the body is even parsed.
      onRequest: app.accountClient.identify,
      schema: {
        tags: ['convert'],
        security: SignedInOrAnonymous,
        summary: 'Screenshot a web page as PNG, JPEG or WebP',
        description:
          'Loads the page in a fresh browser context (no cookies or storage from other calls) as the chosen device and ' +
          'language, waits for its load event (plus `waitForSelector` and `delay`), then captures the viewport, the full ' +
          'page or one element. Addresses that are not public (loopback, private networks, cloud metadata) are refused. ' +
          'Failures answer 422 with "Failed to capture screenshot: <cause>".',
        body: ScreenshotConvertBody,
        response: imageResponses(['png', 'jpeg', 'webp']),
      },
    },
    async (request, reply) => {
      const payload = screenshotPayload(request.body);
      const outcome = await app.accountClient.renderBilled(request, 'screenshot', payload);
      return sendImage(reply, outcome, request.body.outputType);
    },
  );
};

export default screenshotRoutes;
