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
  /** An `Idempotency-Key` whose first request is still being answered: retry once it is (Retry-After). */
  IDEMPOTENCY_KEY_IN_USE: 409,
  PAYMENT_REQUIRED: 402,
  UNSUPPORTED_MEDIA_TYPE: 415,
  PAYLOAD_TOO_LARGE: 413,
  RENDER_FAILED: 422,
  /** An `Idempotency-Key` already used, within its 24 hours, for a request with another body or path. */
  IDEMPOTENCY_KEY_REUSED: 422,
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
  /**
   * The deployment takes no payments (no Stripe key): a configuration matter for its operator, not an outage,
   * so clients can say what to do rather than "try again".
   */
  BILLING_NOT_CONFIGURED: 503,
  UPSTREAM_TIMEOUT: 504,
  RENDER_TIMEOUT: 504,
} as const;

export type ErrorCode = keyof typeof ErrorCodes;

/** Sentences the services answer with for failures of no one field (a render's, the body's, the server's own). */
export const ProblemMessages = {
  invalidJson: 'Invalid JSON format',
  unexpected: 'An unexpected error occurred',
  renderFailed: 'Failed to generate image',
  screenshotFailed: 'Failed to capture screenshot',
} as const;

/** RFC 9457 `title` of each code: a short summary of the problem type, the same for every occurrence. */
export const ErrorTitles: Record<ErrorCode, string> = {
  VALIDATION_ERROR: 'Invalid request',
  INVALID_JSON: 'Invalid JSON',
  INVALID_SVG: 'Invalid SVG',
  UNAUTHORIZED: 'Unauthorized',
  FORBIDDEN: 'Forbidden',
  ANONYMOUS_LIMIT: 'Needs an API key',
  NOT_FOUND: 'Not found',
  METHOD_NOT_ALLOWED: 'Method not allowed',
  CONFLICT: 'Conflict',
  IDEMPOTENCY_KEY_IN_USE: 'Idempotency key in use',
  PAYMENT_REQUIRED: 'No credits left',
  UNSUPPORTED_MEDIA_TYPE: 'Unsupported media type',
  PAYLOAD_TOO_LARGE: 'Request too large',
  RENDER_FAILED: 'Render failed',
  IDEMPOTENCY_KEY_REUSED: 'Idempotency key reused',
  RATE_LIMITED: 'Too many requests',
  QUEUE_FULL: 'Render queue full',
  CLIENT_CLOSED_REQUEST: 'Client closed request',
  INTERNAL_ERROR: 'Internal error',
  QUEUE_UNAVAILABLE: 'Render queue unavailable',
  SERVICE_UNAVAILABLE: 'Service unavailable',
  BILLING_NOT_CONFIGURED: 'Billing not configured',
  UPSTREAM_TIMEOUT: 'Upstream timeout',
  RENDER_TIMEOUT: 'Render timeout',
};

/**
 * RFC 9457 `type` of an error code: a URI reference to the code's entry on the documentation's errors page
 * (`/docs?tab=errors#validation-error`). Relative on purpose: it resolves against the answer's own URL, i.e.
 * the docs of the deployment that answered (the gateway serves the web app on the API's origin), with no
 * host to configure. Stable per code; clients should still branch on `code`.
 */
export const problemType = (code: string): string => `/docs?tab=errors#${code.toLowerCase().replace(/_/g, '-')}`;

/** The title of a code, or a generic one for a code this version does not know. */
export const problemTitle = (code: string): string =>
  Object.hasOwn(ErrorTitles, code) ? ErrorTitles[code as ErrorCode] : 'Request failed';

/** One refused field of a validation error (`errors` of the answer). */
export interface FieldError {
  /** The field's path in the body or query (`width`, `clip.x`, `chartData.datasets.0.data`), `body` for the whole. */
  field: string;
  message: string;
  /** The message's id in the message catalog (`field.widthRange`), when it is a catalogued sentence. */
  messageId?: string;
}

export interface AppErrorOptions {
  /** Sent as the `Retry-After` header (whole seconds, at least 1): when the same request may be tried again. */
  retryAfterSeconds?: number;
  /** Every refused field (a validation error's `errors`), when there are several to report. */
  fieldErrors?: FieldError[];
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly details?: Record<string, unknown>;
  readonly retryAfterSeconds?: number;
  readonly fieldErrors?: FieldError[];

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>, options: AppErrorOptions = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.statusCode = ErrorCodes[code];
    this.details = details;
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = Math.max(1, Math.ceil(options.retryAfterSeconds));
    if (options.fieldErrors?.length) this.fieldErrors = options.fieldErrors;
  }
}

export const isAppError = (err: unknown): err is AppError => err instanceof AppError;
