import { AccountHeads, CompatHeads, RenderHeads } from '@render/contracts/route-heads';
import type { Operation } from './openapi-fields.ts';

/** The docs tabs (docs/spec/screens.md) and which operations of the document each one shows. */
export interface DocsSection {
  id: string;
  /** Tab label (product names, the same in every language). */
  label: string;
  /** A label that is a word rather than a name: its key in the docs catalog (`tabs.<id>`), used instead. */
  translated?: true;
  match: (path: string, operation: Operation) => boolean;
  /** The call whose example body (the document's, from the gateway's example calls) the side panel shows. */
  example?: { path: string; outputFile?: string };
  /** A written guide (content/docs/<language>/<guide>.md) shown instead of operations: the SDK, the CLI, MCP. */
  guide?: DocsGuide;
}

export const DOCS_GUIDES = [
  'api-keys',
  'highcharts-export',
  'screenshot-interactions',
  'read-page',
  'videos',
  'render-links',
  'quickchart',
  'webhooks',
  'batches',
  'sdk',
  'cli',
  'mcp',
  'errors',
] as const;
export type DocsGuide = (typeof DOCS_GUIDES)[number];

const only = (path: string) => (candidate: string) => candidate === path;

/** A render call's tab: that one call, its example saved as `outputFile`. */
const renderCall = (id: string, label: string, head: { url: string }, outputFile: string): DocsSection => ({
  id,
  label,
  match: only(head.url),
  example: { path: head.url, outputFile },
});

export const DOCS_SECTIONS: DocsSection[] = [
  {
    id: 'authentication',
    label: 'Authentication',
    translated: true,
    match: (_path, operation) => ['auth', 'billing'].some((tag) => operation.tags?.includes(tag)),
    example: { path: AccountHeads.login.url },
  },
  // Named API keys (issue 30): the guide (a session token to manage them, curl, JavaScript, Python, the SDK), then the three key calls.
  {
    id: 'api-keys',
    label: 'API keys',
    translated: true,
    match: (path) => path === AccountHeads.listApiKeys.url || path === `${AccountHeads.listApiKeys.url}/{id}`,
    guide: 'api-keys',
  },
  renderCall('html', 'HTML2Img', RenderHeads.html, 'hello.png'),
  renderCall('svg', 'SVG2Img', RenderHeads.svg, 'circle.png'),
  renderCall('chart', 'Chart2Img', RenderHeads.chart, 'chart.png'),
  // Migrating from the Highcharts export server: the guide, then POST /highcharts and /highcharts/{filename}.
  {
    id: 'highcharts-export',
    label: 'Highcharts export server',
    match: (path) => path === CompatHeads.highchartsExport.url || path.startsWith(`${CompatHeads.highchartsExport.url}/`),
    example: { path: CompatHeads.highchartsExport.url, outputFile: 'chart.png' },
    guide: 'highcharts-export',
  },
  {
    id: 'code',
    label: 'Code2Img',
    match: (path) => path === RenderHeads.code.url || path === RenderHeads.codeLanguages.url,
    example: { path: RenderHeads.code.url, outputFile: 'code.png' },
  },
  renderCall('screenshot', 'Screenshot', RenderHeads.screenshot, 'page.png'),
  // Issue 30's screenshot options, each a guide in curl, JavaScript, Python and the SDK (the call's reference is the Screenshot tab).
  { id: 'screenshot-interactions', label: 'Page interactions', translated: true, match: () => false, guide: 'screenshot-interactions' },
  { id: 'read-page', label: 'Pages for agents', translated: true, match: () => false, guide: 'read-page' },
  { id: 'videos', label: 'Videos', translated: true, match: () => false, guide: 'videos' },
  {
    id: 'template',
    label: 'Template',
    match: (_path, operation) => operation.tags?.includes('templates') ?? false,
    example: { path: RenderHeads.template.url, outputFile: 'template.png' },
  },
  // Render links (issue 30): the guide (signing in curl, JavaScript, Python, the SDK), then GET /api/render/{kind}.
  {
    id: 'render-links',
    label: 'Render links',
    match: only(RenderHeads.renderLink.url),
    guide: 'render-links',
  },
  // Migrating from QuickChart (issue 29): the guide, then GET/POST /chart and the short URLs (/chart/create, /chart/render/{id}).
  {
    id: 'quickchart',
    label: 'QuickChart',
    match: (_path, operation) => operation.tags?.includes('quickchart') ?? false,
    guide: 'quickchart',
  },
  // Async renders: the guide (signature checks in JavaScript and Python), then the status, image and deliveries calls.
  { id: 'webhooks', label: 'Webhooks', match: (_path, operation) => operation.tags?.includes('renders') ?? false, guide: 'webhooks' },
  // Batches (issue 30): the guide (curl, JavaScript, Python, the SDK), then POST /api/batch, its status and its archive.
  {
    id: 'batches',
    label: 'Batches',
    translated: true,
    match: (_path, operation) => operation.tags?.includes('batches') ?? false,
    guide: 'batches',
  },
  { id: 'sdk', label: 'SDK', match: () => false, guide: 'sdk' },
  { id: 'cli', label: 'CLI', match: () => false, guide: 'cli' },
  // The guide, then the streamable HTTP endpoint's own reference.
  { id: 'mcp', label: 'MCP', match: (_path, operation) => operation.tags?.includes('mcp') ?? false, guide: 'mcp' },
  // The error body and codes (each error's `type` links to its code here), request ids, retries, CORS, compression.
  { id: 'errors', label: 'Errors', translated: true, match: () => false, guide: 'errors' },
];
