import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PdfFieldNames } from '@render/contracts';
import type { RenderToolDefinition, ToolInputSchema } from './tool-types.ts';

/**
 * `read_page`: a page's main content as markdown plus its metadata, for an assistant that wants to read a
 * page rather than look at it. The screenshot call with `format: "markdown"` and `metadata: true` (the same
 * page load, egress policy, validation and credit as a screenshot); the image-only fields are not offered.
 */
export const READ_PAGE_OMIT = [
  'output',
  'outputType',
  'webhook',
  'format',
  'metadata',
  'fullPage',
  'fullPageScroll',
  'quality',
  'optimize',
  'selector',
  'clip',
  'transparent',
  'omitBackground',
  'scale',
  'hideScrollbars',
  ...PdfFieldNames,
];

/** The tool, its input schema the screenshot body's without READ_PAGE_OMIT (made in tools.ts). */
export const readPageTool = (inputSchema: ToolInputSchema): RenderToolDefinition => ({
  name: 'read_page',
  title: 'Read a public web page as markdown',
  description:
    'Loads a public http(s) URL as render_screenshot does (cookie banners hidden, waitForSelector, delay, headers, cookies, css and js apply) and ' +
    'answers its main content as markdown (Mozilla Readability, then turndown: headings, links, lists and tables; navigation, footers and banners left out), ' +
    'then its metadata as JSON: title, description, canonical URL, language, Open Graph and Twitter tags, favicon, final URL and HTTP status. ' +
    'Private, loopback and cloud-metadata addresses are refused. One credit per page.',
  inputSchema,
  call: { kind: 'read', path: '/api/screenshot/convert', fixed: { format: 'markdown', metadata: true, outputType: 'json' } },
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
});

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The screenshot's JSON answer (`data.content`, `data.metadata`) as two text blocks: the markdown, then the metadata. */
export function pageResult(parsed: unknown): CallToolResult {
  const data = isObject(parsed) && isObject(parsed.data) ? parsed.data : undefined;
  if (!data || typeof data.content !== 'string') {
    return {
      isError: true,
      content: [{ type: 'text', text: 'The render API answered read_page with something other than a page’s content' }],
    };
  }
  const warnings = Array.isArray(data.warnings) ? data.warnings.filter(isObject).map((w) => w.message) : [];
  const metadata = { ...(isObject(data.metadata) ? data.metadata : {}), ...(warnings.length ? { warnings } : {}) };
  return {
    content: [
      { type: 'text', text: data.content },
      { type: 'text', text: JSON.stringify({ metadata }, null, 2) },
    ],
  };
}
