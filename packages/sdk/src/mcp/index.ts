// render-api-sdk/mcp: the render tools as an MCP server, to embed (`createRenderMcpServer` over any transport)
// or to run over stdio (`runStdioMcpServer`, what `renderapi mcp` runs). Node only (stdio).
// The tools live in the workspace's private @render/mcp (shared with the gateway's `POST /api/mcp`) and are
// compiled into this entry's bundle; the types a consumer sees are declared here, so the published
// declarations name no private package (the assignment below fails to compile if the two drift apart).
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { createRenderMcpServer as createServer } from '@render/mcp';
import type { ApiCall } from './api-call.ts';

export type { ApiAnswer, ApiCall } from './api-call.ts';

export interface RenderMcpServerOptions {
  /** Reported to clients in `initialize` (serverInfo.version). */
  version?: string;
}

/**
 * The render API as an MCP server (tools render_html, render_svg, render_chart, render_code,
 * render_screenshot, read_page, render_batch, list_templates, generate_template_image), each calling the public route through `call`.
 */
export function createRenderMcpServer(call: ApiCall, options: RenderMcpServerOptions = {}): Server {
  return createServer(call, options);
}

export { fetchApiCall, runStdioMcpServer, type StdioMcpOptions } from './stdio.ts';
