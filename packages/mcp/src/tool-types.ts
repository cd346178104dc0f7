// What a tool of this package is, read by tools.ts and read-page.ts (a file of its own so neither imports the other for it).

/** A JSON Schema object as MCP's `tools/list` carries it (`type: "object"` at the top). */
export type ToolInputSchema = { type: 'object'; properties?: Record<string, unknown>; required?: string[]; [key: string]: unknown };

/** How a tool's arguments become an API call. */
export type ToolCall =
  /** A billed render: the arguments are the route's JSON body, answered as JSON with the image in base64. */
  | { kind: 'render'; path: string; outputField: 'output' | 'outputType' }
  /** A read: the arguments become the query string. */
  | { kind: 'list'; path: string }
  /** A screenshot read as text (read-page.ts): the arguments plus `fixed`, answered as JSON with `content`. */
  | { kind: 'read'; path: string; fixed: Record<string, unknown> }
  /** A batch (render-batch.ts): the arguments are the batch's body, then its status is polled and its archive read. */
  | { kind: 'batch'; path: string };

export interface RenderToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: ToolInputSchema;
  call: ToolCall;
  /** MCP's hints to clients: whether the tool changes anything (a render spends a credit) or reaches the open web. */
  annotations: { readOnlyHint: boolean; destructiveHint?: boolean; openWorldHint: boolean };
}
