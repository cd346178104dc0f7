import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { AppError, McpRoutes } from '@render/contracts';
import { guardFor } from '@render/fastify-kit';
// The tools live in @render/mcp, shared with the SDK's stdio server (`renderapi mcp`).
import { createRenderMcpServer } from '@render/mcp';
import type { FastifyRequest } from 'fastify';

/**
 * The request as the MCP SDK's web-standard transport reads it. The body is passed already parsed; Accept
 * always lists both types the transport requires, since the answer is JSON whatever the client accepts
 * (`enableJsonResponse`), so plain HTTP clients (curl, Postman) are not refused for a header.
 */
function transportRequest(request: FastifyRequest): Request {
  const headers = new Headers({ 'content-type': 'application/json', accept: 'application/json, text/event-stream' });
  const version = request.headers['mcp-protocol-version'];
  if (typeof version === 'string') headers.set('mcp-protocol-version', version);
  return new Request(new URL(request.url, 'http://gateway.invalid'), { method: 'POST', headers });
}

/** A refusal by the transport (a message it cannot take) in the API's error shape. */
async function transportError(response: Response): Promise<AppError> {
  let message = `MCP request refused (HTTP ${response.status})`;
  try {
    const parsed = (await response.json()) as { error?: { message?: unknown } };
    if (typeof parsed.error?.message === 'string') message = parsed.error.message;
  } catch {
    // Not JSON: keep the generic message.
  }
  return new AppError(response.status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : 'VALIDATION_ERROR', message);
}

/**
 * `POST /api/mcp`: the render tools for AI assistants over MCP's streamable HTTP transport, stateless (a
 * server and transport per request, no session), authenticated with the caller's API key or token. The
 * envelope itself is free; each tool call is billed by the route it goes through. GET and DELETE (the
 * server-sent event stream and session end of stateful servers) are not offered: 405, which clients accept.
 */
const mcpRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { mcp } = McpRoutes;
  app.post(
    mcp.url,
    { onRequest: guardFor({ hook: 'onRequest', rules: { signedIn: app.identity.requireAccount } }, mcp) ?? undefined, schema: mcp.schema },
    async (request, reply) => {
      // Each tool call goes through the public route it names, as this client (see `innerCalls`).
      const server = createRenderMcpServer((method, path, body) => app.innerCalls.call(request, method, path, body));
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await server.connect(transport);
      try {
        const response = await transport.handleRequest(transportRequest(request), { parsedBody: request.body });
        if (response.status >= 400) throw await transportError(response);
        const body = await response.text();
        // 200 with the JSON-RPC answer, or 202 for a notification; refusals were turned into errors above.
        reply.status(response.status === 202 ? 202 : 200);
        if (!body) return reply.send();
        return reply.type(response.headers.get('content-type') ?? 'application/json').send(body);
      } finally {
        await server.close();
      }
    },
  );
};

export default mcpRoutes;
