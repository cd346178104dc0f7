/**
 * One error vocabulary for every service and the web app. The HTTP status lives next to the code so a
 * service can never answer the same failure with two different statuses.
 */
export const ErrorCodes = {
  VALIDATION_ERROR: 400,
  INVALID_JSON: 400,
  INVALID_SVG: 422,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  /**
   * A render a caller without credentials may not ask for (too large, or costing more than a minute's quota):
   * only an API key gets it through, so it is not a 429 to retry.
   */
  ANONYMOUS_LIMIT: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYMENT_REQUIRED: 402,
  UNSUPPORTED_MEDIA_TYPE: 415,
  PAYLOAD_TOO_LARGE: 413,
  RENDER_FAILED: 422,
  /** Too many requests from one caller (per-IP anonymous limit, an account's renders in flight, logins). */
  RATE_LIMITED: 429,
  /**
   * A render queue is past its depth: back-pressure, not an outage, so 429 with Retry-After (the request can
   * be retried as is in a moment). Redis being unreachable stays QUEUE_UNAVAILABLE, a 503.
   */
  QUEUE_FULL: 429,
  /** nginx's convention: nobody reads this answer, the caller hung up first. */
  CLIENT_CLOSED_REQUEST: 499,
  INTERNAL_ERROR: 500,
  QUEUE_UNAVAILABLE: 503,
  SERVICE_UNAVAILABLE: 503,
  UPSTREAM_TIMEOUT: 504,
  RENDER_TIMEOUT: 504,
} as const;

export type ErrorCode = keyof typeof ErrorCodes;

export interface AppErrorOptions {
  /** Sent as the `Retry-After` header (whole seconds, at least 1): when the same request may be tried again. */
  retryAfterSeconds?: number;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly details?: Record<string, unknown>;
  readonly retryAfterSeconds?: number;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>, options: AppErrorOptions = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.statusCode = ErrorCodes[code];
    this.details = details;
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = Math.max(1, Math.ceil(options.retryAfterSeconds));
  }
}

export const isAppError = (err: unknown): err is AppError => err instanceof AppError;
