// `POST /api/mcp`: the Model Context Protocol's streamable HTTP transport (JSON-RPC 2.0). The gateway checks
// only the envelope; the MCP SDK's transport reads the rest, and each tool call goes through the public route
// it names (same validation, limits and credits).
import { type Static, Type } from 'typebox';
import { StringEnum, withMessages } from './schema-helpers.ts';

const JsonRpcId = Type.Union([Type.String({ maxLength: 256 }), Type.Integer()]);

export const McpMessage = Type.Object(
  {
    jsonrpc: withMessages(StringEnum(['2.0'] as const, { description: 'Always "2.0"' }), {
      required: 'Not a JSON-RPC message: jsonrpc must be "2.0"',
      enum: 'Not a JSON-RPC message: jsonrpc must be "2.0"',
      type: 'Not a JSON-RPC message: jsonrpc must be "2.0"',
    }),
    id: Type.Optional(JsonRpcId),
    method: Type.Optional(
      withMessages(Type.String({ minLength: 1, maxLength: 256, description: 'e.g. initialize, tools/list, tools/call' }), {
        type: 'method must be a string',
        minLength: 'method must not be empty',
        maxLength: 'method is too long',
      }),
    ),
    params: Type.Optional(
      withMessages(Type.Object({}, { additionalProperties: true, description: 'For tools/call: { name, arguments }' }), {
        type: 'params must be an object',
      }),
    ),
  },
  {
    $id: 'McpMessage',
    additionalProperties: true,
    description: 'One JSON-RPC 2.0 message of the Model Context Protocol (a request, a notification, or a response to the server)',
  },
);
export type McpMessage = Static<typeof McpMessage>;

export const McpResponse = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    id: Type.Union([JsonRpcId, Type.Null()]),
    result: Type.Optional(Type.Object({}, { additionalProperties: true })),
    error: Type.Optional(
      Type.Object({ code: Type.Integer(), message: Type.String(), data: Type.Optional(Type.Unknown()) }, { additionalProperties: true }),
    ),
  },
  {
    $id: 'McpResponse',
    additionalProperties: true,
    description:
      'The JSON-RPC answer: `result` (for tools/call: `content` with images, and `isError` when the API refused the call) or `error`',
  },
);
export type McpResponse = Static<typeof McpResponse>;
