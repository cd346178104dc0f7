// The render API's MCP tools (README.md), shared by the gateway's `POST /api/mcp` and the SDK's stdio server
// (`renderapi mcp`, which compiles this package into its bundles). Private: the published surface is the
// SDK's `render-api-sdk/mcp`.
export { type ApiAnswer, type ApiCall, createRenderMcpServer, type RenderMcpServerOptions } from './server.ts';
export { type RenderToolDefinition, renderTools, type ToolCall, type ToolInputSchema, toolInputSchema } from './tools.ts';
