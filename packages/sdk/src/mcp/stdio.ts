import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createRenderMcpServer } from '@render/mcp';
import type { ApiAnswer, ApiCall } from './api-call.ts';

export interface StdioMcpOptions {
  /** The account's API key (rk_…): every tool call is made, and billed, as that account. */
  apiKey: string;
  /** Where the public API is, e.g. https://render.example.com (no trailing /api). */
  baseUrl: string;
  /** How long one API call may take before the tool reports a timeout. Renders wait in the queue, so be generous. */
  timeoutMs?: number;
  /** Reported to clients as the server's version. */
  version?: string;
  /** For tests and other runtimes; the global fetch by default. */
  fetch?: typeof fetch;
}

const DEFAULT_TIMEOUT_MS = 120_000;

/** An `ApiCall` over HTTP with the API key, for the stdio server (and anything else that is not the gateway). */
export function fetchApiCall(options: Omit<StdioMcpOptions, 'version'>): ApiCall {
  const base = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return async (method, path, body): Promise<ApiAnswer> => {
    const headers: Record<string, string> = { 'X-API-Key': options.apiKey, Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await doFetch(`${base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    return {
      status: res.status,
      headers: Object.fromEntries([...res.headers].map(([name, value]) => [name.toLowerCase(), value])),
      body: new Uint8Array(await res.arrayBuffer()),
    };
  };
}

/**
 * `renderapi mcp`: the render tools over stdio for a local MCP client (Claude Desktop, an IDE), calling the
 * public API with the API key. Resolves once connected; the server then runs until stdin closes.
 * Nothing may be written to stdout but the protocol: diagnostics go to stderr.
 */
export async function runStdioMcpServer(options: StdioMcpOptions): Promise<{ close(): Promise<void> }> {
  if (!options.apiKey?.trim()) throw new Error('An API key is required: set RENDER_API_KEY (or pass --api-key)');
  if (!/^https?:\/\//i.test(options.baseUrl))
    throw new Error(`The API base URL must start with http:// or https:// (got "${options.baseUrl}")`);
  const server = createRenderMcpServer(fetchApiCall({ ...options, apiKey: options.apiKey.trim() }), { version: options.version });
  const transport = new StdioServerTransport();
  await server.connect(transport);
  return { close: () => server.close() };
}
