// The API's answers as the tools read them, and the tools' own text and error results (server.ts, render-batch.ts).
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** What one API call answered: the status, its headers (lower-case names) and the raw body. */
export interface ApiAnswer {
  status: number;
  headers: Record<string, string | undefined>;
  body: Uint8Array;
}

/**
 * Performs one call of the public API as the MCP client's account (its API key): over HTTP for the stdio
 * server, through the gateway's own routes for `POST /api/mcp`. `path` includes the query string.
 */
export type ApiCall = (method: 'GET' | 'POST', path: string, body?: unknown) => Promise<ApiAnswer>;

export type Json = Record<string, unknown>;
export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

export const text = (value: string) => ({ type: 'text' as const, text: value });
export const failure = (message: string): CallToolResult => ({ isError: true, content: [text(message)] });

export function parseJson(body: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(body));
  } catch {
    return undefined;
  }
}

/** The API's error answer (`{ success: false, code, message }`) as a tool error the model can act on. */
export function apiFailure(answer: ApiAnswer): CallToolResult {
  const parsed = parseJson(answer.body);
  const message =
    isObject(parsed) && typeof parsed.message === 'string' ? parsed.message : new TextDecoder().decode(answer.body).slice(0, 500);
  const code = isObject(parsed) && typeof parsed.code === 'string' ? `${parsed.code}, ` : '';
  const retryAfter = answer.headers['retry-after'];
  const retry = answer.status === 429 && retryAfter ? ` Retry after ${retryAfter} s.` : '';
  return failure(`${message || 'The render API refused the call'} (${code}HTTP ${answer.status}).${retry}`);
}
