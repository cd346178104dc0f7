// The public calls the gateway serves itself (renders, async renders, limits, ping, MCP), each declared once
// from its head (`route-heads.ts`) and its schemas: the gateway registers and documents them from these, and
// the web app and the SDK call the same paths.
import { Type } from 'typebox';
import { BatchAccepted, BatchBody, BatchIdParams, BatchLimits, BatchResponse } from './batch.ts';
import { ChartConvertBody, ChartFormats } from './chart.ts';
import { CodeCatalogResponse, CodeConvertBody } from './code.ts';
import { HighchartsExportBody, HighchartsExportParams, HighchartsExportTypes } from './highcharts-export.ts';
import { LimitsResponse } from './limits.ts';
import { McpMessage, McpResponse } from './mcp.ts';
import {
  QuickChartBody,
  QuickChartCreateResponse,
  QuickChartLimits,
  QuickChartQuery,
  QuickChartRenderQuery,
  QuickChartShortUrlParams,
} from './quickchart.ts';
import {
  ErrorResponse,
  formatMessages,
  HtmlConvertBody,
  type MimeTypes,
  PageOutputFormats,
  PingResponse,
  RasterFormats,
  SvgConvertBody,
  SvgOutputFormats,
} from './render.ts';
import { RenderLinkDescription, RenderLinkParams, RenderLinkQuery } from './render-link.ts';
import { type HttpMethod, type PublicRoute, publicRouteOf, type RouteHead, type RouteSchema } from './route.ts';
import { AsyncRenderHeads, CompatHeads, McpHeads, RenderHeads, SystemHeads } from './route-heads.ts';
import { StringEnum, withMessages } from './schema-helpers.ts';
import { ScreenshotConvertBody, ScreenshotFormats } from './screenshot.ts';
import { TemplateGenerateBody, TemplateIdParams, TemplateLimits } from './template.ts';
import { AsyncRenderAccepted, AsyncRenderResponse, RenderIdParams, WebhookDeliveriesResponse } from './webhook.ts';

export type ImageFormat = keyof typeof MimeTypes;

/**
 * A call answered with an image: its contract says which formats it can answer with; the gateway adds the
 * image answers (binary in each format, or JSON with base64) to `schema.response`, which holds the rest.
 */
export interface ImageRouteContract<M extends HttpMethod = HttpMethod, S extends RouteSchema = RouteSchema> extends PublicRoute<M, S> {
  formats: readonly ImageFormat[];
}

const imageRoute = <H extends RouteHead, S extends RouteSchema>(head: H, formats: readonly ImageFormat[], schema: S) => ({
  ...publicRouteOf(head, schema),
  formats,
});

/** A render call: its body, and a 202 when it carries `webhook` (an async render). */
const renderRoute = <H extends RouteHead, S extends RouteSchema>(head: H, formats: readonly ImageFormat[], schema: S) =>
  imageRoute(head, formats, { tags: ['convert'], ...schema, response: { 202: AsyncRenderAccepted, ...schema.response } });

/** The signed template image URL's query: format, quality, sig, and every other parameter a variable. */
export const TemplateImageQuery = Type.Object(
  {
    format: Type.Optional(withMessages(StringEnum(SvgOutputFormats), formatMessages(SvgOutputFormats))),
    quality: Type.Optional(
      withMessages(Type.String({ pattern: '^[0-9]{1,3}$' }), { format: 'quality must be a whole number between 1 and 100' }),
    ),
    sig: Type.Optional(Type.String({ maxLength: 128 })),
  },
  {
    // Every other parameter is a variable; a repeated one (an array) is refused rather than guessed at.
    additionalProperties: withMessages(Type.String({ maxLength: TemplateLimits.variableValueMax }), {
      type: 'Each template variable may appear once in the query',
      maxLength: `Each variable value must be at most ${TemplateLimits.variableValueMax} characters`,
    }),
    maxProperties: TemplateLimits.maxVariables + 3,
  },
);

const templateErrors = { 403: ErrorResponse, 404: ErrorResponse };

export const RenderRoutes = {
  html: renderRoute(RenderHeads.html, PageOutputFormats, {
    summary: 'Render HTML to PNG, JPEG, WebP, AVIF or PDF',
    description:
      'Renders the HTML in a viewport of width × height CSS pixels and captures it as an image, or prints it as a PDF ' +
      'document (`format: "pdf"`): paper pages (pageSize or pageWidth/pageHeight, landscape, margin, pageRanges, header ' +
      "and footer templates), or with `fitToContent` one page the size of the content. For PDF the answer's width and " +
      'height are those of the (first) page in CSS pixels (1/96 in).',
    body: HtmlConvertBody,
  }),
  svg: renderRoute(RenderHeads.svg, SvgOutputFormats, {
    summary: 'Render SVG to PNG, JPEG, WebP, AVIF or a resized SVG',
    body: SvgConvertBody,
  }),
  chart: renderRoute(RenderHeads.chart, ChartFormats, {
    summary: 'Render a Chart.js, D3 or Highcharts chart to PNG, JPEG, WebP, AVIF, SVG (D3, Highcharts) or PDF (Highcharts)',
    body: ChartConvertBody,
  }),
  code: renderRoute(RenderHeads.code, RasterFormats, {
    summary: 'Render highlighted source code to PNG, JPEG, WebP or AVIF',
    description:
      'The image is the code window itself: the theme background with rounded corners (transparent outside them in PNG, ' +
      'WebP and AVIF, filled with the theme background in JPEG). Height fits the code unless `height` is given (then the code ' +
      'is cropped or the window padded); long lines wrap. Auto height is limited to 16,000 image pixels and the ' +
      'width × height × scale² pixel budget. For shareable images, `window` adds a mac or Windows bar with a title, ' +
      '`outerPadding` with `background` (a colour or gradient; transparent without one, which JPEG refuses) and `shadow` ' +
      'frame the window, `highlightLines` marks lines and `firstLineNumber` shifts the gutter.',
    body: CodeConvertBody,
  }),
  screenshot: renderRoute(RenderHeads.screenshot, ScreenshotFormats, {
    summary:
      'Screenshot a web page as PNG, JPEG, WebP, AVIF or PDF, record it as MP4, WebM or GIF, or read its main content as markdown, HTML or text',
    description:
      'Loads the page in a fresh browser context (no cookies or storage from other calls) as the chosen device and ' +
      'language, waits for its load event (plus `waitForSelector` and `delay`), then captures the viewport, the full ' +
      'page or one element, or prints the page as a PDF document (`format: "pdf"`, with the same page options as the ' +
      'HTML call). Addresses that are not public (loopback, private networks, cloud metadata) are refused. ' +
      'Failures answer 422 with "Failed to capture screenshot: <cause>". ' +
      '`format: "markdown" | "html" | "text"` answers the page’s main content instead of an image (Mozilla Readability, ' +
      'then turndown for markdown), after the same load; `metadata: true` adds the page’s metadata to a JSON answer.',
    body: ScreenshotConvertBody,
  }),
  codeLanguages: publicRouteOf(RenderHeads.codeLanguages, {
    tags: ['convert'],
    summary: 'Languages and themes accepted by the code renderer',
    response: { 200: CodeCatalogResponse },
  }),
  template: renderRoute(RenderHeads.template, SvgOutputFormats, {
    tags: ['templates'],
    summary: 'Render a template with variables (one credit)',
    body: TemplateGenerateBody,
    response: templateErrors,
  }),
  templateImage: imageRoute(RenderHeads.templateImage, SvgOutputFormats, {
    tags: ['templates'],
    summary: 'A template rendered from a signed URL (for <img> tags); cached, charged to the owner once',
    description:
      'Query: the variables as name=value, optional format and quality, and sig = hex HMAC-SHA256 keyed with the owner\'s API key over "<template id>?<all other parameters sorted by name, percent-encoded, joined with &>".',
    params: TemplateIdParams,
    querystring: TemplateImageQuery,
    response: templateErrors,
  }),
  renderLink: imageRoute(RenderHeads.renderLink, PageOutputFormats, {
    tags: ['convert'],
    summary: 'Render link: any render kind from a URL (for <img> tags); cached for ttl, charged to the key’s owner once per miss',
    description: RenderLinkDescription,
    params: RenderLinkParams,
    querystring: RenderLinkQuery,
    // 404: a kind that is no route, as when the URL's path normalises away from it (`/api/render/..`).
    response: { 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse },
  }),
};

// 400: an id the URL parser refuses (malformed percent-encoding, too long).
const asyncErrors = { 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse, 503: ErrorResponse };

/** Async renders (a convert call with `webhook`) and the account's webhook deliveries: owner only. */
export const AsyncRenderRoutes = {
  status: publicRouteOf(AsyncRenderHeads.status, {
    tags: ['renders'],
    summary: 'The status of an async render (a convert call with `webhook`)',
    description:
      'queued → rendering → done (imageUrl serves the image until expiresAt) or failed (error says why; nothing is charged). Kept for ASYNC_RESULT_TTL_SECONDS (24 h by default) after submission.',
    params: RenderIdParams,
    response: { 200: AsyncRenderResponse, ...asyncErrors },
  }),
  image: publicRouteOf(AsyncRenderHeads.image, {
    tags: ['renders'],
    summary: 'The image of a finished async render, while it is kept',
    description: '409 while the render is queued or rendering, or when it failed (the status says why); 404 once it has expired.',
    params: RenderIdParams,
    response: {
      200: {
        description: 'The image bytes, with their media type',
        content: { 'application/octet-stream': { schema: Type.String({ format: 'binary' }) } },
      },
      ...asyncErrors,
      409: ErrorResponse,
    },
  }),
  webhookDeliveries: publicRouteOf(AsyncRenderHeads.webhookDeliveries, {
    tags: ['renders'],
    summary: 'The latest webhook delivery attempts of the account, newest first',
    description: 'Each attempt with its HTTP status or error; the last 100 are kept for 7 days.',
    response: { 200: WebhookDeliveriesResponse, 401: ErrorResponse, 503: ErrorResponse },
  }),
  createBatch: publicRouteOf(AsyncRenderHeads.createBatch, {
    tags: ['batches'],
    summary: `Render up to ${BatchLimits.maxItems} requests of any kind in one call (a batch), in the background`,
    description:
      'Each item is { kind, body }: kind is html, svg, chart, code or screenshot, body the fields of that convert call, with `defaults` ' +
      'merged under it; or kind template, body { templateId, variables, format, quality, optimize }, a template you may use rendered as POST /api/template/generate does (a key of scope templates or full). Every item is checked (its schema, then what its call checks beyond it) before anything is queued: an invalid ' +
      'item is a 400 (or the 422 its single call would answer) naming its index and field, and nothing is charged. The credits of every item are reserved up front (402 when ' +
      'the account has not enough: nothing is queued); a failed item’s are given back. The batch counts as one render in flight ' +
      `and renders ${BatchLimits.parallel} items at a time. \`webhook\` is called once, signed, when every item has ended.`,
    body: BatchBody,
    response: {
      202: BatchAccepted,
      400: ErrorResponse,
      401: ErrorResponse,
      402: ErrorResponse,
      403: ErrorResponse,
      422: ErrorResponse,
      429: ErrorResponse,
      503: ErrorResponse,
    },
  }),
  batch: publicRouteOf(AsyncRenderHeads.batch, {
    tags: ['batches'],
    summary: 'The status of a batch and of each of its items',
    description:
      'queued → running → done (every item has ended: done with an image, or failed with the error a single call would have answered); after DELETE, cancelling → cancelled. Kept for ASYNC_RESULT_TTL_SECONDS (24 h by default) after submission; owner only.',
    params: BatchIdParams,
    response: { 200: BatchResponse, ...asyncErrors },
  }),
  batchArchive: publicRouteOf(AsyncRenderHeads.batchArchive, {
    tags: ['batches'],
    summary: 'A zip of the images of a finished batch',
    description:
      'One file per item that made an image, named by its index (two digits) and its format’s extension (00.png, 01.svg, …). 409 while the batch has not ended (done or cancelled), or when no item made an image.',
    params: BatchIdParams,
    response: {
      200: { description: 'The zip archive', content: { 'application/zip': { schema: Type.String({ format: 'binary' }) } } },
      ...asyncErrors,
      409: ErrorResponse,
    },
  }),
  cancelBatch: publicRouteOf(AsyncRenderHeads.cancelBatch, {
    tags: ['batches'],
    summary: 'Cancel a batch: items not yet started are dropped and their credits given back',
    description:
      'Items not yet started are taken off their queues and marked cancelled, their credits released before the answer; items already rendering finish and are charged. The batch is cancelling until they have, then cancelled: its webhook is called once with that status, and the archive serves what finished. Answers the batch’s status. 409 once the batch has ended (done or cancelled); owner only (any other account: 404).',
    params: BatchIdParams,
    response: { 200: BatchResponse, ...asyncErrors, 409: ErrorResponse },
  }),
};

export const SystemRoutes = {
  ping: publicRouteOf(SystemHeads.ping, { tags: ['system'], summary: 'Liveness check', response: { 200: PingResponse } }),
  limits: publicRouteOf(SystemHeads.limits, {
    tags: ['system'],
    summary: 'The limits of anonymous calls and of each plan, and whether the launch period is on',
    description:
      'Without credentials a render costs quota units by its size and format (one per started 1024 × 1024 pixels, at ' +
      'least one, times the format weight) against a per-minute and a per-day quota per address; answers subject to ' +
      'them carry RateLimit-Policy and RateLimit headers. With an API key each delivered image is one credit.',
    response: { 200: LimitsResponse, 503: ErrorResponse },
  }),
};

export const McpRoutes = {
  mcp: publicRouteOf(McpHeads.mcp, {
    tags: ['mcp'],
    summary: 'MCP server (streamable HTTP) with the render tools for AI assistants',
    description:
      'The Model Context Protocol over streamable HTTP, stateless (no Mcp-Session-Id): tools render_html, render_svg, render_chart, ' +
      'render_code, render_screenshot, read_page, list_templates and generate_template_image, described from the same schemas as the render calls. ' +
      'Point an MCP client at this URL with your API key (X-API-Key or Authorization: Bearer). Each tool call is made and billed as ' +
      'the matching API call (one credit per image); images come back as MCP image content, refusals as `isError` results with the ' +
      'API’s message.',
    body: McpMessage,
    response: {
      200: McpResponse,
      // Unsafe<unknown>: the JSON-RPC answer is passed on as the transport's text, not re-serialised.
      202: Type.Unsafe<unknown>({ description: 'A notification or response accepted (no content)', type: 'null' }),
      400: ErrorResponse,
      401: ErrorResponse,
      503: ErrorResponse,
    },
  }),
};

const QUICKCHART_DESCRIPTION =
  'QuickChart-compatible: the same parameters as QuickChart (`chart`/`c`, `width`/`w`, `height`/`h`, `devicePixelRatio`, ' +
  '`backgroundColor`/`bkg`, `format`/`f`, `version`/`v`, `encoding`), so `<img src>` tags and clients written for QuickChart ' +
  'work with only the base URL changed. The config may be JavaScript (function callbacks), evaluated only inside the ' +
  'isolated render page. Chart.js 2.9.4 by default (`version=2`), Chart.js 4 for `version=3` or `4`, with datalabels, ' +
  'annotation, outlabels (v2) and doughnut centre labels (v2); QuickChart types `sparkline`, `progressBar`, `donut`. ' +
  'Billed as chart-to-img: anonymous per-IP limits, or an API key (`X-API-Key`, Bearer, or `key=` in the query). ' +
  'Errors answer 4xx JSON with the reason, also in the `X-quickchart-error` header.';

const QUICKCHART_CREATE_DESCRIPTION =
  'QuickChart’s short URLs: the same parameters as `POST /chart` (long and short names), checked as it checks them, ' +
  'kept under a random id; the answer is QuickChart’s `{ "success": true, "url": … }`, the url being ' +
  '`/chart/render/{id}` on this server. Creating costs no credit (anonymous calls take one unit of the per-IP limit); ' +
  `each GET of the url renders and is billed as \`GET /chart\`. A short URL answers for ${QuickChartLimits.shortUrlDays} days ` +
  'by default (the operator’s CHART_SHORT_URL_TTL_DAYS), whoever created it; an API key’s owner is recorded.';

const QUICKCHART_RENDER_DESCRIPTION =
  'The chart a short URL (`POST /chart/create`) keeps, rendered as `GET /chart` renders (same queue, limits, billing ' +
  'and errors: anonymous per-IP limits, or an API key as `X-API-Key`, Bearer or `key=`). The query may override ' +
  '`width`/`w`, `height`/`h`, `devicePixelRatio`, `backgroundColor`/`bkg`, `format`/`f` and `version`/`v`. An unknown or ' +
  'expired id answers 404.';

const HIGHCHARTS_EXPORT_DESCRIPTION =
  'The Highcharts export server’s `POST /` (node-export-server): point a client of it at `/highcharts` and change nothing ' +
  'else. The body comes as JSON, form-urlencoded or multipart: the chart’s options in `infile` (or `options`, `data`), or ' +
  'an SVG in `svg`; `type` png, jpeg, pdf or svg (or their media types); `constr` chart, stockChart, mapChart (with the map ' +
  'as inline GeoJSON or TopoJSON in `chart.map` or a series’ `mapData`) or ganttChart; `width`, `height`, `scale`, ' +
  '`globalOptions`, `themeOptions`. The answer is the file, as an attachment named `{filename}.{type}` (the path’s ' +
  'filename, else `chart`) unless `noDownload`, or its base64 text with `b64`. `callback`, `customCode` and `resources` ' +
  'are refused with 400 unless the operator enables custom code. Limits and credits are those of chart-to-img.';

const QUICKCHART_FORMATS = ['png', 'webp', 'jpeg', 'svg', 'pdf'] as const;

/** The drop-in endpoints for other chart servers' clients; the gateway serves them over the chart pipeline. */
export const CompatRoutes = {
  quickChartGet: imageRoute(CompatHeads.quickChartGet, QUICKCHART_FORMATS, {
    tags: ['quickchart'],
    summary: 'QuickChart-compatible chart image (GET)',
    description: QUICKCHART_DESCRIPTION,
    querystring: QuickChartQuery,
  }),
  quickChartPost: imageRoute(CompatHeads.quickChartPost, QUICKCHART_FORMATS, {
    tags: ['quickchart'],
    summary: 'QuickChart-compatible chart image (POST)',
    description: QUICKCHART_DESCRIPTION,
    body: QuickChartBody,
    querystring: QuickChartQuery,
  }),
  quickChartCreate: publicRouteOf(CompatHeads.quickChartCreate, {
    tags: ['quickchart'],
    summary: 'QuickChart-compatible short URL: store a chart, get its URL',
    description: QUICKCHART_CREATE_DESCRIPTION,
    body: QuickChartBody,
    querystring: QuickChartQuery,
    response: { 200: QuickChartCreateResponse, 400: ErrorResponse, 401: ErrorResponse, 429: ErrorResponse, 503: ErrorResponse },
  }),
  quickChartRender: imageRoute(CompatHeads.quickChartRender, QUICKCHART_FORMATS, {
    tags: ['quickchart'],
    summary: 'QuickChart-compatible short URL: the stored chart’s image',
    description: QUICKCHART_RENDER_DESCRIPTION,
    params: QuickChartShortUrlParams,
    querystring: QuickChartRenderQuery,
    response: { 404: ErrorResponse },
  }),
  highchartsExport: imageRoute(CompatHeads.highchartsExport, HighchartsExportTypes, {
    tags: ['convert'],
    summary: 'Highcharts export server: render chart options or an SVG',
    description: HIGHCHARTS_EXPORT_DESCRIPTION,
    body: HighchartsExportBody,
  }),
  // A {filename} such as `..` takes the URL out of these routes: no such route.
  highchartsExportFile: imageRoute(CompatHeads.highchartsExportFile, HighchartsExportTypes, {
    tags: ['convert'],
    summary: 'Highcharts export server: render, with the download’s file name',
    description: HIGHCHARTS_EXPORT_DESCRIPTION,
    body: HighchartsExportBody,
    params: HighchartsExportParams,
    response: { 404: ErrorResponse },
  }),
};
