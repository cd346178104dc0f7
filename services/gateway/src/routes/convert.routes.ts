import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ChartConvertBody,
  ChartFormats,
  CodeCatalogResponse,
  CodeConvertBody,
  HtmlConvertBody,
  NoCredentials,
  PageOutputFormats,
  RasterFormats,
  ScreenshotConvertBody,
  SvgConvertBody,
  SvgOutputFormats,
} from '@render/contracts';
import { toChartRenderPayload } from '../convert/chart-input.ts';
import { codeCatalog } from '../convert/code-catalog.ts';
import { prepareCodePayload } from '../convert/code-request.ts';
import { htmlPayload, svgPayload } from '../convert/markup-request.ts';
import { screenshotPayload } from '../convert/screenshot-request.ts';
import { renderRoute } from '../images/image-route.ts';

/**
 * The render calls: each checks its body beyond the schema and builds its job payload; `renderRoute` does
 * the rest (caller, credits, queue, the image answer).
 */
const convertRoutes: FastifyPluginAsyncTypebox = async (app) => {
  renderRoute(app, {
    url: '/api/html-to-img/convert',
    kind: 'html',
    summary: 'Render HTML to PNG, JPEG, WebP, AVIF or PDF',
    description:
      'Renders the HTML in a viewport of width × height CSS pixels and captures it as an image, or prints it as a PDF ' +
      'document (`format: "pdf"`): paper pages (pageSize or pageWidth/pageHeight, landscape, margin, pageRanges, header ' +
      "and footer templates), or with `fitToContent` one page the size of the content. For PDF the answer's width and " +
      'height are those of the (first) page in CSS pixels (1/96 in).',
    body: HtmlConvertBody,
    formats: [...PageOutputFormats],
    toPayload: htmlPayload,
  });

  renderRoute(app, {
    url: '/api/svg-to-img/convert',
    kind: 'svg',
    summary: 'Render SVG to PNG, JPEG, WebP, AVIF or a resized SVG',
    body: SvgConvertBody,
    formats: [...SvgOutputFormats],
    toPayload: svgPayload,
  });

  renderRoute(app, {
    url: '/api/chart-to-img/convert',
    kind: 'chart',
    summary: 'Render a Chart.js, D3 or Highcharts chart to PNG, JPEG, WebP, AVIF, SVG (D3, Highcharts) or PDF (Highcharts)',
    body: ChartConvertBody,
    formats: [...ChartFormats],
    toPayload: toChartRenderPayload,
  });

  renderRoute(app, {
    url: '/api/code-to-img/convert',
    kind: 'code',
    summary: 'Render highlighted source code to PNG, JPEG, WebP or AVIF',
    description:
      'The image is the code window itself: the theme background with rounded corners (transparent outside them in PNG, ' +
      'WebP and AVIF, filled with the theme background in JPEG). Height fits the code unless `height` is given (then the code ' +
      'is cropped or the window padded); long lines wrap. Auto height is limited to 16,000 image pixels and the ' +
      'width × height × scale² pixel budget. For shareable images, `window` adds a mac or Windows bar with a title, ' +
      '`outerPadding` with `background` (a colour or gradient; transparent without one, which JPEG refuses) and `shadow` ' +
      'frame the window, `highlightLines` marks lines and `firstLineNumber` shifts the gutter.',
    body: CodeConvertBody,
    formats: [...RasterFormats],
    toPayload: prepareCodePayload,
  });

  renderRoute(app, {
    url: '/api/screenshot/convert',
    kind: 'screenshot',
    summary: 'Screenshot a web page as PNG, JPEG, WebP, AVIF or PDF',
    description:
      'Loads the page in a fresh browser context (no cookies or storage from other calls) as the chosen device and ' +
      'language, waits for its load event (plus `waitForSelector` and `delay`), then captures the viewport, the full ' +
      'page or one element, or prints the page as a PDF document (`format: "pdf"`, with the same page options as the ' +
      'HTML call). Addresses that are not public (loopback, private networks, cloud metadata) are refused. ' +
      'Failures answer 422 with "Failed to capture screenshot: <cause>".',
    body: ScreenshotConvertBody,
    formats: [...PageOutputFormats],
    toPayload: screenshotPayload,
  });

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

export default convertRoutes;
