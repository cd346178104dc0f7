/** One refused field of a validation error. */
export interface RenderApiFieldError {
  field: string;
  message: string;
}

/**
 * Every failed call ends in a `RenderApiError`: the server's own error answer (an RFC 9457 problem,
 * `application/problem+json`, with the API's `success: false`, `message`, `code`, the request's id and, for a
 * refused body, every refused field: packages/contracts `ErrorResponse`), or, with `status` 0, a failure
 * before any answer (timeout, network), so callers need one `catch` branch.
 */
export class RenderApiError extends Error {
  /** The HTTP status; 0 when no answer was received (`code` is then TIMEOUT or NETWORK_ERROR). */
  readonly status: number;
  /** The server's error code (VALIDATION_ERROR, UNAUTHORIZED, QUEUE_FULL, RENDER_FAILED, …). */
  readonly code: string;
  /** Seconds the server asked to wait before the same call (`Retry-After`), when it said so. */
  readonly retryAfter?: number;
  /** The request's id (`X-Request-Id`): quote it when reporting a problem. */
  readonly requestId?: string;
  /** A validation error's refused fields, each with its message (`message` is the first one's). */
  readonly errors?: RenderApiFieldError[];

  constructor(init: {
    status: number;
    code: string;
    message: string;
    retryAfter?: number;
    requestId?: string;
    errors?: RenderApiFieldError[];
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'RenderApiError';
    this.status = init.status;
    this.code = init.code;
    if (init.retryAfter !== undefined) this.retryAfter = init.retryAfter;
    if (init.requestId !== undefined) this.requestId = init.requestId;
    if (init.errors !== undefined) this.errors = init.errors;
  }

  /** The error a non-2xx answer stands for; reads its body (the API's problem body, or whatever a proxy sent). */
  static async fromResponse(response: Response, now: number = Date.now()): Promise<RenderApiError> {
    const text = await response.text().catch(() => '');
    let code = `HTTP_${response.status}`;
    let message = `${response.status} ${response.statusText || 'error'}`.trim();
    let requestId = response.headers.get('x-request-id') ?? undefined;
    let errors: RenderApiFieldError[] | undefined;
    try {
      const body = JSON.parse(text) as { message?: unknown; detail?: unknown; code?: unknown; requestId?: unknown; errors?: unknown };
      // `message` is the API's own; `detail` is what another RFC 9457 server in the way would say.
      if (typeof body.message === 'string' && body.message) message = body.message;
      else if (typeof body.detail === 'string' && body.detail) message = body.detail;
      if (typeof body.code === 'string' && body.code) code = body.code;
      if (typeof body.requestId === 'string' && body.requestId) requestId = body.requestId;
      if (Array.isArray(body.errors)) errors = body.errors.filter(isFieldError);
    } catch {
      // Not the API's JSON (an HTML page from a proxy, an empty body): keep the status line, plus a short excerpt.
      const excerpt = text.trim().slice(0, 200);
      if (excerpt && !excerpt.startsWith('<')) message = `${message}: ${excerpt}`;
    }
    const retryAfter = parseRetryAfter(response.headers.get('retry-after'), now);
    return new RenderApiError({
      status: response.status,
      code,
      message,
      ...(retryAfter === undefined ? {} : { retryAfter }),
      ...(requestId === undefined ? {} : { requestId }),
      ...(errors === undefined ? {} : { errors }),
    });
  }
}

const isFieldError = (item: unknown): item is RenderApiFieldError =>
  typeof (item as RenderApiFieldError | null)?.field === 'string' && typeof (item as RenderApiFieldError | null)?.message === 'string';

/**
 * `Retry-After` in seconds: delta-seconds, or an HTTP date (RFC 9110 §10.2.3) counted from `now`.
 * Undefined when absent or unreadable; never negative.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}
