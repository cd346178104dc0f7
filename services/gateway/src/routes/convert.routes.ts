import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { RenderRoutes } from '@render/contracts';
import { toChartRenderPayload } from '../convert/chart-input.ts';
import { codeCatalog } from '../convert/code-catalog.ts';
import { prepareCodePayload } from '../convert/code-request.ts';
import { htmlPayload, svgPayload } from '../convert/markup-request.ts';
import { screenshotPayload } from '../convert/screenshot-request.ts';
import { renderRoute } from '../images/image-route.ts';

/**
 * The render calls, registered from their contracts (`RenderRoutes`): each checks its body beyond the schema
 * and builds its job payload; `renderRoute` does the rest (caller, credits, queue, the image answer).
 */
const convertRoutes: FastifyPluginAsyncTypebox = async (app) => {
  renderRoute(app, RenderRoutes.html, { kind: 'html', toPayload: htmlPayload });
  renderRoute(app, RenderRoutes.svg, { kind: 'svg', toPayload: svgPayload });
  renderRoute(app, RenderRoutes.chart, { kind: 'chart', toPayload: toChartRenderPayload });
  renderRoute(app, RenderRoutes.code, { kind: 'code', toPayload: prepareCodePayload });
  renderRoute(app, RenderRoutes.screenshot, { kind: 'screenshot', toPayload: screenshotPayload });

  const { codeLanguages } = RenderRoutes;
  app.route({
    method: codeLanguages.method,
    url: codeLanguages.url,
    schema: codeLanguages.schema,
    handler: async (_request, reply) => {
      // The list only changes with a deploy.
      reply.header('Cache-Control', 'public, max-age=3600');
      return codeCatalog();
    },
  });
};

export default convertRoutes;
