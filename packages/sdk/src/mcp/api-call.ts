// The one call the MCP tools make of the public API, as the embedding code performs it (index.ts, stdio.ts).

/** What one API call answered: the status, its headers (lower-case names) and the raw body. */
export interface ApiAnswer {
  status: number;
  headers: Record<string, string | undefined>;
  body: Uint8Array;
}

/** Performs one call of the public API as the MCP client's account; `path` includes the query string. */
export type ApiCall = (method: 'GET' | 'POST', path: string, body?: unknown) => Promise<ApiAnswer>;
