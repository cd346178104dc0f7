import { WebMessages } from '../i18n/message-ids.ts';

/**
 * The one way the app calls the gateway. Every failure becomes an ApiError whose `message` follows
 * docs/spec/errors.md: the server's `message` when the answer has one, else "An error occurred"; no answer at all
 * gives the connection message; anything else keeps its own message or "An unexpected error occurred".
 */
export const ErrorTexts = {
  generic: WebMessages.generic,
  noResponse: WebMessages.noResponse,
  // The server's own wording too (the contracts' ProblemMessages.unexpected): one entry of the catalog.
  unexpected: 'An unexpected error occurred',
} as const;

export class ApiError extends Error {
  constructor(
    message: string,
    /** HTTP status, or 0 when no answer arrived. */
    readonly status: number,
    /** The parsed JSON body of the answer, when there was one. */
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The error body's `code` (VALIDATION_ERROR, RATE_LIMITED, …), what a translation is chosen by. */
  get code(): string | undefined {
    const code = (this.data as { code?: unknown } | null | undefined)?.code;
    return typeof code === 'string' ? code : undefined;
  }

  /** The error body's `messageId` (`auth.emailTaken`): the catalogued sentence it is, what it is translated by first. */
  get messageId(): string | undefined {
    const id = (this.data as { messageId?: unknown } | null | undefined)?.messageId;
    return typeof id === 'string' ? id : undefined;
  }
}

/** The rule of docs/spec/errors.md for any thrown value: what a toast or an inline error should say. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error && error.message) return error.message;
  return ErrorTexts.unexpected;
}

let tokenSource: () => string | null = () => null;
// Same origin in the browser (the gateway serves the app; Vite proxies /api in development).
let baseUrl = '';
/** Where relative /api paths go: empty in the app; tests and other hosts point it at a gateway. */
export const setApiBaseUrl = (url: string) => {
  baseUrl = url.replace(/\/$/, '');
};
/** The session store registers how to read the current token; the client adds it to every call. */
export const setTokenSource = (source: () => string | null) => {
  tokenSource = source;
};

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Send no Authorization header even when signed in (the playgrounds' anonymous demo calls). */
  anonymous?: boolean;
}

const messageOf = (data: unknown): string | undefined => {
  const message = (data as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message ? message : undefined;
};

/** Sends a request and answers the raw Response when it is a success (2xx). */
export async function apiFetch(path: string, options: RequestOptions = {}): Promise<Response> {
  // Errors come as RFC 9457 problems (application/problem+json) with the same `message`.
  const headers: Record<string, string> = { accept: 'application/json, application/problem+json', ...options.headers };
  const token = options.anonymous ? null : tokenSource();
  if (token && !headers.authorization && !headers['x-api-key']) headers.authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path.startsWith('/') ? `${baseUrl}${path}` : path, {
      method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if ((error as Error)?.name === 'AbortError') throw error;
    throw new ApiError(ErrorTexts.noResponse, 0);
  }
  if (response.ok) return response;
  const data = await response
    .clone()
    .json()
    .catch(() => undefined);
  throw new ApiError(messageOf(data) ?? ErrorTexts.generic, response.status, data);
}

/** A JSON call: the parsed body of a 2xx answer. */
export async function apiJson<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await apiFetch(path, options);
  if (response.status === 204) return undefined as T;
  try {
    return (await response.json()) as T;
  } catch {
    throw new ApiError(WebMessages.invalidResponse, response.status);
  }
}
