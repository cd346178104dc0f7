import {
  BatchBody,
  ChartConvertBody,
  CodeConvertBody,
  dropDefaultedRequired,
  HtmlConvertBody,
  RenderLimits,
  ScreenshotConvertBody,
  SvgConvertBody,
  TemplateGenerateBody,
  TemplateListQuery,
} from '@render/contracts';
import { READ_PAGE_OMIT, readPageTool } from './read-page.ts';
import { renderBatchTool } from './render-batch.ts';
import type { RenderToolDefinition, ToolInputSchema } from './tool-types.ts';

export type { RenderToolDefinition, ToolCall, ToolInputSchema } from './tool-types.ts';

/** A render spends a credit and changes nothing else; HTML and screenshots load what the page asks for. */
const render = (openWorld: boolean) => ({ readOnlyHint: false, destructiveHint: false, openWorldHint: openWorld });

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Fields the tools fill in themselves, so they are not offered: the answer's encoding (always JSON with
 * base64, which becomes MCP image content) and `webhook` (an asynchronous delivery an assistant cannot receive).
 */
const TRANSPORT_FIELDS = ['output', 'outputType', 'webhook'];

/**
 * A contract's body schema as a tool's `inputSchema`: the same properties, bounds, enums, defaults and
 * descriptions the gateway validates with, minus what an MCP client has no use for. Validation messages
 * (`x-messages`) and `$id` are the gateway's; a defaulted field is optional to a caller (the contracts list
 * it as required so the handlers see it filled in), as in the OpenAPI document.
 */
export function toolInputSchema(schema: object, omit: readonly string[] = TRANSPORT_FIELDS): ToolInputSchema {
  const copy = JSON.parse(JSON.stringify(schema)) as Json;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (!isObject(node)) return;
    delete node['x-messages'];
    delete node.$id;
    dropDefaultedRequired(node);
    for (const value of Object.values(node)) visit(value);
  };
  // Several MCP clients (and the model APIs behind them) refuse combinators at the top of a tool's schema;
  // what they say (e.g. which formats a chart library draws) is in the descriptions, and the gateway applies it.
  for (const keyword of ['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else']) delete copy[keyword];
  const properties = isObject(copy.properties) ? copy.properties : {};
  for (const name of omit) delete properties[name];
  if (Array.isArray(copy.required)) copy.required = copy.required.filter((name) => !omit.includes(name as string));
  visit(copy);
  return { ...copy, type: 'object' };
}

const size = `width and height are CSS pixels from ${RenderLimits.minDimension} to ${RenderLimits.maxDimension}; width × height × scale² must not exceed ${RenderLimits.maxPixels.toLocaleString('en-US')} pixels`;
const imageAnswer =
  'PNG, JPEG and WebP come back as image content; other formats (SVG as text, PDF and AVIF as an embedded file) as a resource. One credit per image.';

/** The tools, each described from its contract (schema, bounds) and pointing at the public route it calls. */
export const renderTools: RenderToolDefinition[] = [
  {
    name: 'render_html',
    title: 'Render HTML to an image or PDF',
    description:
      `Renders an HTML document or fragment (inline CSS and <style> allowed; scripts run) in a headless Chromium viewport and captures it. ${size}. ` +
      'format: png (default), jpeg, webp or pdf (paper pages with pageSize, margins, header/footer templates; fitToContent for one page the size of the content). ' +
      `The whole request body is limited to a few MB. ${imageAnswer}`,
    inputSchema: toolInputSchema(HtmlConvertBody),
    call: { kind: 'render', path: '/api/html-to-img/convert', outputField: 'output' },
    annotations: render(true),
  },
  {
    name: 'render_svg',
    title: 'Rasterise an SVG',
    description:
      `Renders SVG markup (its root must be <svg>; scripts and external resources are not loaded) to png (default), jpeg, webp, or a resized svg. ${size}. ` +
      `transparent keeps a transparent background in PNG/WebP. ${imageAnswer}`,
    inputSchema: toolInputSchema(SvgConvertBody),
    call: { kind: 'render', path: '/api/svg-to-img/convert', outputField: 'output' },
    annotations: render(false),
  },
  {
    name: 'render_chart',
    title: 'Render a chart',
    description:
      'Renders a chart from a JSON configuration with library chartjs (chartData = the Chart.js data object, chartOptions = its options), ' +
      'd3 (built-in bar, line, area, pie, donut and scatter charts) or highcharts (chartOptions = the Highcharts options). ' +
      'Only JSON data: functions and strings that look like code are refused. ' +
      `Formats: png (default), jpeg, svg (D3, Highcharts), pdf (Highcharts). ${size}. ${imageAnswer}`,
    inputSchema: toolInputSchema(ChartConvertBody),
    call: { kind: 'render', path: '/api/chart-to-img/convert', outputField: 'outputType' },
    annotations: render(false),
  },
  {
    name: 'render_code',
    title: 'Render source code as a highlighted image',
    description:
      'Renders source code with syntax highlighting (language and theme names as in Shiki, e.g. typescript and github-dark) as a code window image: ' +
      'the height fits the code unless height is given; window adds a mac or Windows title bar, outerPadding with background frames it, highlightLines marks lines. ' +
      `Formats: png (default), jpeg, webp. ${imageAnswer}`,
    inputSchema: toolInputSchema(CodeConvertBody),
    call: { kind: 'render', path: '/api/code-to-img/convert', outputField: 'outputType' },
    annotations: render(false),
  },
  {
    name: 'render_screenshot',
    title: 'Screenshot a public web page',
    description:
      'Loads a public http(s) URL in a fresh browser (no cookies from other calls) as a desktop, tablet or mobile device, waits for its load event ' +
      '(plus waitForSelector and delay), then captures the viewport, the full page (fullPage) or one element (selector), or prints it as a PDF. ' +
      `Private, loopback and cloud-metadata addresses are refused. ${size}. ${imageAnswer}`,
    inputSchema: toolInputSchema(ScreenshotConvertBody),
    call: { kind: 'render', path: '/api/screenshot/convert', outputField: 'outputType' },
    annotations: render(true),
  },
  readPageTool(toolInputSchema(ScreenshotConvertBody, READ_PAGE_OMIT)),
  renderBatchTool(toolInputSchema(BatchBody, ['webhook'])),
  {
    name: 'list_templates',
    title: 'List image templates',
    description:
      'Lists the SVG image templates the caller can use: their own and the public ones (newest first), with each template id, name, size and ' +
      'variables (name, type, default value). q searches names; page and pageSize (digit strings) page through the list. Free of charge.',
    inputSchema: toolInputSchema(TemplateListQuery),
    call: { kind: 'list', path: '/api/template' },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'generate_template_image',
    title: 'Generate an image from a template',
    description:
      'Fills a template (its id from list_templates) with variables (name → value: text, a number, or for image variables an http(s) image URL) and renders it ' +
      `as png (default), jpeg, webp or svg at the template's size. Variables left out keep their default value. ${imageAnswer}`,
    inputSchema: toolInputSchema(TemplateGenerateBody),
    call: { kind: 'render', path: '/api/template/generate', outputField: 'outputType' },
    // Image variables are fetched from the URLs given.
    annotations: render(true),
  },
];
