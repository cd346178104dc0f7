import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type RenderLinkKind, signRenderUrl } from '@render/contracts/signed-render-link';
import { serveScreenshotPage } from './screenshot-pages.ts';
import { HTML } from './workload.ts';

/** What a workload's request may depend on, known only once the stack runs. */
export interface WorkloadContext {
  pageOrigin: string;
  /** The saved bench template and the API key it is generated with (when the template services run). */
  template?: { templateId: string; apiKey: string };
}

/** One format's request through the full stack; `check` rejects anything but a plausible image. */
export interface FormatWorkload {
  name: string;
  path: string;
  body(ctx: WorkloadContext): unknown;
  headers?(ctx: WorkloadContext): Record<string, string>;
  /** Needs the account and template services, hence Postgres (DATABASE_URL); skipped without them. */
  needsTemplates?: boolean;
  /** The reference the other formats' p50 is compared with (the issue's "HTML p50 of the same run"). */
  reference?: boolean;
  /** Formats the issue holds to "p50 within 2× the HTML p50". */
  target?: boolean;
  /**
   * The same simple column/bar chart drawn by each chart library (and the compatibility endpoints): the
   * name of its row in the per-library table of server times (Server-Timing render p50), compared with Chart.js 4.
   */
  library?: string;
  /**
   * A screenshot video (mp4, webm, gif): each request takes its duration and more, so the formats phase runs
   * at most `requests` of them (after one warm-up), and the scale bench's c=8 formats phase leaves them out.
   */
  video?: { requests: number };
  /** Answers the page's text (a page read), not an image. */
  text?: boolean;
  /**
   * A render link (issue 30 §1) instead of the POST: `GET /api/render/{kind}` with the body as its query,
   * signed with the context's API key (`renderLinkPaths`). `MISS`: each request a link of its own; `HIT`:
   * one link, rendered once before the run. Every answer's X-Cache is checked.
   */
  link?: { kind: RenderLinkKind; cache: 'HIT' | 'MISS' };
  /**
   * A batch (issue 30 §5): the body POSTed to `path`, then the batch's status read until every item has
   * ended, `runs` times after one warm-up (bench/lib/batch-run.ts); two rows, the 202 and the batch's end.
   */
  batch?: { runs: number };
}

/** The per-library table's reference row (see `FormatWorkload.library`). */
export const CHART_JS_4 = 'Chart.js 4';

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const values = [12, 19, 3, 5, 2, 3, 9, 14, 11, 7, 16, 8];

const highchartsColumn = {
  chart: { type: 'column' },
  title: { text: 'Sales' },
  xAxis: { categories: months },
  series: [{ name: 'Sales', data: values }],
};

/** A 10,000-point series (one sample a minute over about a week), the most a chart series may hold. */
const POINTS = 10_000;
const manyLabels = Array.from({ length: POINTS }, (_, i) => {
  const t = new Date(Date.UTC(2026, 0, 1) + i * 60_000);
  return t.toISOString().slice(5, 16).replace('T', ' ');
});
const manyValues = Array.from({ length: POINTS }, (_, i) => Math.round(500 + 300 * Math.sin(i / 700) + ((i * 7919) % 97)));

const TYPESCRIPT_30_LINES = `import { createServer } from 'node:http';

interface Order {
  id: string;
  items: Array<{ sku: string; quantity: number; price: number }>;
  createdAt: Date;
}

export function total(order: Order): number {
  return order.items.reduce((sum, item) => sum + item.quantity * item.price, 0);
}

const orders = new Map<string, Order>();

export const server = createServer((req, res) => {
  const id = new URL(req.url ?? '/', 'http://localhost').searchParams.get('id');
  const order = id ? orders.get(id) : undefined;
  if (!order) {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'not found' }));
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ id: order.id, total: total(order) }));
});

server.listen(3000, () => {
  console.log('listening on http://localhost:3000');
});
`;

export const FORMAT_WORKLOADS: FormatWorkload[] = [
  { name: 'html 800×600', path: '/api/html-to-img/convert', body: () => ({ html: HTML, width: 800, height: 600 }), reference: true },
  {
    name: 'svg 800×600',
    path: '/api/svg-to-img/convert',
    body: () => ({
      svg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 75"><rect width="100" height="75" fill="#0ea5e9"/><circle cx="50" cy="37" r="25" fill="#fde047"/></svg>',
      width: 800,
      height: 600,
    }),
  },
  {
    name: 'chart.js bar 800×400',
    library: CHART_JS_4,
    path: '/api/chart-to-img/convert',
    body: () => ({
      library: 'chartjs',
      chartType: 'bar',
      chartData: { labels: months, datasets: [{ label: 'Sales', data: values }] },
      width: 800,
      height: 400,
    }),
    target: true,
  },
  {
    name: 'd3 line 800×400',
    path: '/api/chart-to-img/convert',
    body: () => ({
      library: 'd3',
      chartType: 'line',
      chartData: { labels: months, datasets: [{ label: 'Sales', data: values }] },
      width: 800,
      height: 400,
    }),
    target: true,
  },
  {
    name: 'd3 bar 800×400',
    library: 'D3',
    path: '/api/chart-to-img/convert',
    body: () => ({
      library: 'd3',
      chartType: 'bar',
      chartData: { labels: months, datasets: [{ label: 'Sales', data: values }] },
      width: 800,
      height: 400,
    }),
  },
  {
    name: 'highcharts column 800×400',
    library: 'Highcharts',
    path: '/api/chart-to-img/convert',
    body: () => ({ library: 'highcharts', chartOptions: highchartsColumn, width: 800, height: 400 }),
    target: true,
  },
  {
    name: 'POST /highcharts column 800×400',
    library: 'Highcharts export server (POST /highcharts)',
    path: '/highcharts',
    body: () => ({ infile: highchartsColumn, width: 800, height: 400, type: 'png' }),
  },
  // Hook: Chart.js 2 (`library: 'Chart.js 2'`) and QuickChart's `/chart` (`library: 'QuickChart (POST /chart)'`)
  // join the per-library table by adding their workload for the same chart here.
  // The same 10,000-point line in each library: what a long series costs through the full stack.
  {
    name: 'chart.js line 10k points 800×400',
    path: '/api/chart-to-img/convert',
    body: () => ({
      library: 'chartjs',
      chartType: 'line',
      chartData: { labels: manyLabels, datasets: [{ label: 'Load', data: manyValues }] },
      width: 800,
      height: 400,
    }),
  },
  {
    name: 'd3 line 10k points 800×400',
    path: '/api/chart-to-img/convert',
    body: () => ({
      library: 'd3',
      chartType: 'line',
      chartData: { labels: manyLabels, datasets: [{ label: 'Load', data: manyValues }] },
      width: 800,
      height: 400,
    }),
  },
  {
    name: 'highcharts line 10k points 800×400',
    path: '/api/chart-to-img/convert',
    body: () => ({
      library: 'highcharts',
      chartOptions: {
        chart: { type: 'line' },
        title: { text: 'Load' },
        xAxis: { categories: manyLabels },
        series: [{ name: 'Load', data: manyValues }],
      },
      width: 800,
      height: 400,
    }),
  },
  {
    name: 'code 30 lines TypeScript',
    path: '/api/code-to-img/convert',
    body: () => ({ code: TYPESCRIPT_30_LINES, language: 'typescript' }),
    target: true,
  },
  {
    name: 'screenshot local page',
    path: '/api/screenshot/convert',
    body: ({ pageOrigin }) => ({ url: `${pageOrigin}/page.html`, width: 1280, height: 800 }),
  },
  // Pages for agents (issue 30): the same page load as the capture above, answered as its main content in
  // markdown (readability + turndown in the worker) instead of an image.
  {
    name: 'page read markdown (local page)',
    path: '/api/screenshot/convert',
    body: ({ pageOrigin }) => ({ url: `${pageOrigin}/page.html`, format: 'markdown' }),
    text: true,
  },
  // Screenshot videos (issue 30, "Motion"): a 1 s scroll through the page at 640×360, 15 fps; the p50 is
  // the second of recording plus the page load and ffmpeg's encoding.
  ...(['mp4', 'webm', 'gif'] as const).map(
    (format): FormatWorkload => ({
      name: `screenshot video ${format} 1 s 640×360 15 fps`,
      path: '/api/screenshot/convert',
      body: ({ pageOrigin }) => ({
        url: `${pageOrigin}/page.html`,
        format,
        scenario: 'scroll',
        duration: 1,
        fps: 15,
        width: 640,
        height: 360,
      }),
      video: { requests: 8 },
    }),
  ),
  // Render links (issue 30 §1): the HTML above from a signed GET link; a miss renders and bills (the
  // account lookup and signature check added to the render), a hit answers from the render cache.
  ...(['MISS', 'HIT'] as const).map(
    (cache): FormatWorkload => ({
      name: `render link html 800×600, signed, cache ${cache.toLowerCase()}`,
      path: '/api/render/html',
      needsTemplates: true,
      body: () => ({ html: HTML, width: 800, height: 600 }),
      link: { kind: 'html', cache },
    }),
  ),
  // Batches (issue 30 §5): ten of the HTML above in one call, rendered in the background four at a time.
  {
    name: 'batch 10 html 800×600',
    path: '/api/batch',
    needsTemplates: true,
    body: () => ({
      items: Array.from({ length: 10 }, () => ({ kind: 'html', body: { html: HTML } })),
      defaults: { width: 800, height: 600 },
    }),
    headers: ({ template }) => ({ 'x-api-key': template?.apiKey ?? '' }),
    batch: { runs: 10 },
  },
  {
    // Authenticated with an API key, so each one also reserves and settles a credit like a customer's call.
    name: 'template 800×400, 3 variables',
    path: '/api/template/generate',
    needsTemplates: true,
    body: ({ template }) => ({
      templateId: template?.templateId,
      variables: { title: 'Quarterly revenue', value: 1284, accent: '.accent{fill:#f97316}' },
    }),
    headers: ({ template }) => ({ 'x-api-key': template?.apiKey ?? '' }),
  },
];

/**
 * The paths of `count` signed render links for `workload` (its `link`), signed with the context's API key.
 * Misses differ by their `ttl` alone, which is part of the cache key: the same render each time, never
 * found in the cache. Hits are one link (a day's ttl), `count` times.
 */
export async function renderLinkPaths(workload: FormatWorkload, context: WorkloadContext, count: number): Promise<string[]> {
  const { link } = workload;
  const apiKey = context.template?.apiKey;
  if (!link || !apiKey) throw new Error(`${workload.name}: a render link needs its kind and an API key`);
  const body = workload.body(context) as Record<string, unknown>;
  const sign = (ttl: number) => signRenderUrl({ baseUrl: '', apiKey, kind: link.kind, body, ttl });
  if (link.cache === 'HIT') return new Array<string>(count).fill(await sign(86_400));
  return Promise.all(Array.from({ length: count }, (_, i) => sign(3_600 + i)));
}

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Bench page</title><style>
body{margin:0;font-family:sans-serif}header{background:#1e293b;color:#fff;padding:24px 48px;font-size:28px}
main{padding:48px;display:grid;grid-template-columns:repeat(3,1fr);gap:24px}.card{height:180px;border-radius:12px;background:#e2e8f0}
</style></head><body><header>Bench page</header><main>${'<div class="card"></div>'.repeat(9)}</main></body></html>`;

/** Loopback pages for the screenshot workload and phase; the worker is started with them allow-listed. */
export async function startPageServer(): Promise<{ origin: string; hostPort: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    if (req.url === '/page.html') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    else if (!serveScreenshotPage(req, res)) res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hostPort: `127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
