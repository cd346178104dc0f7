// The low-level Server (not McpServer) on purpose: McpServer wants zod schemas, while the tools' input
// schemas are the contracts' JSON Schemas, passed through as they are.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { type ApiAnswer, type ApiCall, apiFailure, failure, isObject, type Json, parseJson, text } from './api-answers.ts';
import { fileContent } from './content-blocks.ts';
import { pageResult } from './read-page.ts';
import { runBatch } from './render-batch.ts';
import { type RenderToolDefinition, renderTools } from './tools.ts';

export type { ApiAnswer, ApiCall } from './api-answers.ts';

export interface RenderMcpServerOptions {
  /** Reported to clients in `initialize` (serverInfo.version). */
  version?: string;
}

const SERVER_NAME = 'renderapi';

const INSTRUCTIONS =
  'Render API tools: turn HTML, SVG, chart configurations, source code, web pages and saved SVG templates into images (PNG by default), ' +
  'render up to 50 of them in one batch (render_batch), and read a web page as markdown with its metadata (read_page). ' +
  'Each render costs the account one credit; list_templates is free. Errors carry the API’s own message, naming the field at fault.';

/** A render's JSON answer (`data.image` in base64 plus its metadata) as MCP content. */
function renderResult(tool: RenderToolDefinition, answer: ApiAnswer): CallToolResult {
  const parsed = parseJson(answer.body);
  const data = isObject(parsed) && isObject(parsed.data) ? parsed.data : undefined;
  if (!data || typeof data.image !== 'string' || typeof data.mimeType !== 'string') {
    return failure(`The render API answered ${tool.call.path} with something other than an image (HTTP ${answer.status})`);
  }
  const { image, mimeType, format, width, height, size } = data;
  const warnings = Array.isArray(data.warnings)
    ? data.warnings.map((w) => (isObject(w) && typeof w.message === 'string' ? w.message : String(w)))
    : [];
  const summary =
    `${String(format).toUpperCase()} ${width}×${height}, ${size} bytes.` +
    (answer.headers['x-cache'] === 'HIT' ? ' Served from the cache (no credit charged).' : '') +
    (warnings.length > 0 ? ` Warnings: ${warnings.join('; ')}` : '');
  return { content: [fileContent(`render://${tool.name}/image.${format}`, mimeType, image), text(summary)] };
}

/** The template list, without each template's SVG source (long, and not needed to fill one in). */
function templateList(answer: ApiAnswer): CallToolResult {
  const parsed = parseJson(answer.body);
  if (!isObject(parsed) || !Array.isArray(parsed.data))
    return failure('The render API answered the template list with something unexpected');
  const templates = parsed.data.filter(isObject).map((t) => ({
    id: t.id,
    name: t.name,
    width: t.width,
    height: t.height,
    variables: t.variables,
    creatorName: t.creatorName,
    isPublic: t.isPublic,
    isOwner: t.isOwner,
  }));
  return { content: [text(JSON.stringify({ templates, pagination: parsed.pagination }, null, 2))] };
}

/** Tool arguments as a query string: only scalar values (the list's q, page, pageSize) can be sent. */
function queryString(args: Json): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(args)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') search.append(name, String(value));
  }
  const query = search.toString();
  return query ? `?${query}` : '';
}

async function runTool(call: ApiCall, tool: RenderToolDefinition, args: Json): Promise<CallToolResult> {
  if (tool.call.kind === 'batch') return runBatch(call, args);
  let answer: ApiAnswer;
  try {
    if (tool.call.kind === 'list') {
      answer = await call('GET', `${tool.call.path}${queryString(args)}`);
    } else if (tool.call.kind === 'read') {
      const { webhook: _webhook, output: _output, outputType: _outputType, ...body } = args;
      answer = await call('POST', tool.call.path, { ...body, ...tool.call.fixed });
    } else {
      // Always JSON with base64, and never a webhook: the image must come back in this answer.
      const { webhook: _webhook, output: _output, outputType: _outputType, ...body } = args;
      answer = await call('POST', tool.call.path, { ...body, [tool.call.outputField]: 'json' });
    }
  } catch (err) {
    return failure(`Could not reach the render API: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (answer.status >= 400) return apiFailure(answer);
  if (tool.call.kind === 'read') return pageResult(parseJson(answer.body));
  return tool.call.kind === 'list' ? templateList(answer) : renderResult(tool, answer);
}

/**
 * The render API as an MCP server: one tool per render kind, a batch of them, the page read, and the template list and generation, each
 * calling the public route through `call`, so both transports (stdio with the API over HTTP, and the
 * gateway's `POST /api/mcp` over its own routes) share the tools, and validation, limits and credits are
 * exactly the API's.
 */
export function createRenderMcpServer(call: ApiCall, options: RenderMcpServerOptions = {}): Server {
  const server = new Server(
    { name: SERVER_NAME, version: options.version ?? '0.1.0' },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  const byName = new Map(renderTools.map((tool) => [tool.name, tool]));

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: renderTools.map(({ name, title, description, inputSchema, annotations }) => ({
      name,
      title,
      description,
      inputSchema,
      annotations: { title, ...annotations },
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    return runTool(call, tool, request.params.arguments ?? {});
  });

  return server;
}
