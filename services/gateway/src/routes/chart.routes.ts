import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ChartConvertBody, SignedInOrAnonymous } from '@render/contracts';
import { toChartRenderPayload } from '../lib/chart-input.ts';
import { assertPixelBudget, imageResponses, sendImage } from '../lib/image-reply.ts';

const chartRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/api/chart-to-img/convert',
    {
      // Credentials (or the anonymous per-IP limit) are checked before the body is even parsed.
      onRequest: app.accountClient.identify,
      schema: {
        tags: ['convert'],
        security: SignedInOrAnonymous,
        summary: 'Render a Chart.js, D3 or Highcharts chart to PNG, JPEG, SVG (D3, Highcharts) or PDF (Highcharts)',
        body: ChartConvertBody,
        response: imageResponses(['png', 'jpeg', 'svg', 'pdf']),
      },
    },
    async (request, reply) => {
      const body = request.body;
      const payload = toChartRenderPayload(body);
      assertPixelBudget(payload.width, payload.height, payload.format === 'png' || payload.format === 'jpeg' ? payload.scale : 1);
      const outcome = await app.accountClient.renderBilled(request, 'chart', payload);
      return sendImage(reply, outcome, body.outputType);
    },
  );
};

export default chartRoutes;
