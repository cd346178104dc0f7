import { parseRetryAfter, RenderApiError } from './errors.ts';

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface TransportOptions {
  fetch: FetchLike;
  /** Per attempt: from sending the request to the last byte of the answer. */
  timeoutMs: number;
  /** Attempts after the first, on 429, 503 and network errors. */
  retries: number;
  /** The longest wait between attempts; a `Retry-After` asking for more ends the call with that error instead. */
  maxRetryDelayMs: number;
  /** First backoff step without `Retry-After` (doubled per attempt, with jitter). */
  baseRetryDelayMs: number;
}

/** What one call sends: the body is bytes (or nothing) so every attempt can send it again. */
export interface OutgoingRequest {
  url: string;
  method: string;
  headers: Headers;
  body?: Uint8Array<ArrayBuffer> | string;
  signal?: AbortSignal | null;
}

// The API's back-pressure answers: QUEUE_FULL / RATE_LIMITED (429) and QUEUE_UNAVAILABLE / SERVICE_UNAVAILABLE (503).
const RETRYABLE = new Set([429, 503]);
/** With an Idempotency-Key, a 409 is IDEMPOTENCY_KEY_IN_USE: the first attempt is still being answered. */
const IN_USE = 409;
const IDEMPOTENCY_KEY = 'idempotency-key';

// The calls that create something, which the API makes safe to repeat with an Idempotency-Key: template create
// and duplicate, API key regeneration, a batch, and a render with a `webhook` (an async render). Other POSTs either
// create nothing (a synchronous render) or are not worth repeating (sign-up, log-in).
const CREATES = [/^\/api\/template$/, /^\/api\/template\/[^/]+\/duplicate$/, /^\/api\/auth\/api-key\/regenerate$/, /^\/api\/batch$/];
const RENDERS = /^\/api\/(?:html-to-img|svg-to-img|chart-to-img|code-to-img|screenshot)\/convert$|^\/api\/template\/generate$/;

/** Whether a call creates something (see CREATES and RENDERS): such a call carries an Idempotency-Key. */
export function createsSomething(method: string, url: string, body?: Uint8Array | string): boolean {
  if (method.toUpperCase() !== 'POST') return false;
  const path = new URL(url, 'http://base.invalid').pathname;
  if (CREATES.some((pattern) => pattern.test(path))) return true;
  if (!RENDERS.test(path) || body === undefined) return false;
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  if (!text.includes('"webhook"')) return false;
  try {
    return typeof (JSON.parse(text) as { webhook?: unknown }).webhook === 'string';
  } catch {
    return false;
  }
}

/** A random UUID (v4) from Web Crypto's getRandomValues, which every runtime has (randomUUID needs a secure context). */
function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
/** Statuses that cannot carry a body (`new Response(body, …)` refuses one). */
const NULL_BODY = new Set([101, 204, 205, 304]);

class TimeoutSignal extends Error {}

const sleep = (ms: number, signal?: AbortSignal | null) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** fetch's own message is often just "fetch failed": the cause (ECONNREFUSED, ENOTFOUND…) says more. */
function describeNetworkError(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const cause = err instanceof Error ? (err.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  const detail = typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : '';
  return detail && !message.includes(detail) ? `${message} (${detail})` : message;
}

/** Exponential backoff with full jitter in its upper half, so clients told "busy" together do not return together. */
export const backoffMs = (attempt: number, base: number, cap: number) => {
  const ceiling = Math.min(cap, base * 2 ** attempt);
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
};

/**
 * Sends a request with a timeout per attempt and retries on 429/503 (honouring `Retry-After`) and on network
 * errors. The answer is read whole inside the attempt's timeout and handed back as a fresh `Response`, so a
 * stalled body cannot outlive the deadline. A caller's own abort is re-thrown as is, never retried.
 *
 * A call that creates something (`createsSomething`) gets one Idempotency-Key for all its attempts (unless it
 * has one already): an attempt whose answer was lost and is sent again gets the first answer back, and nothing
 * is created or charged twice. With the key, a 409 (the first attempt still being answered) is retried too.
 */
export async function send(request: OutgoingRequest, options: TransportOptions): Promise<Response> {
  const userSignal = request.signal ?? undefined;
  if (!request.headers.has(IDEMPOTENCY_KEY) && createsSomething(request.method, request.url, request.body)) {
    request.headers.set(IDEMPOTENCY_KEY, newIdempotencyKey());
  }
  const retryable = (status: number) => RETRYABLE.has(status) || (status === IN_USE && request.headers.has(IDEMPOTENCY_KEY));
  for (let attempt = 0; ; attempt += 1) {
    const controller = new AbortController();
    const onUserAbort = () => controller.abort(userSignal?.reason);
    if (userSignal?.aborted) throw userSignal.reason;
    userSignal?.addEventListener('abort', onUserAbort, { once: true });
    const timer = setTimeout(() => controller.abort(new TimeoutSignal()), options.timeoutMs);
    let response: Response;
    try {
      const answer = await options.fetch(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        signal: controller.signal,
      });
      const bytes = NULL_BODY.has(answer.status) ? null : new Uint8Array(await answer.arrayBuffer());
      response = new Response(bytes, { status: answer.status, statusText: answer.statusText, headers: answer.headers });
    } catch (err) {
      if (userSignal?.aborted) throw userSignal.reason;
      if (controller.signal.reason instanceof TimeoutSignal) {
        throw new RenderApiError({
          status: 0,
          code: 'TIMEOUT',
          message: `No complete answer from ${new URL(request.url).origin} within ${options.timeoutMs} ms`,
        });
      }
      if (attempt < options.retries) {
        await sleep(backoffMs(attempt, options.baseRetryDelayMs, options.maxRetryDelayMs), userSignal);
        continue;
      }
      throw new RenderApiError({
        status: 0,
        code: 'NETWORK_ERROR',
        message: `Could not reach ${new URL(request.url).origin}: ${describeNetworkError(err)}`,
        cause: err,
      });
    } finally {
      clearTimeout(timer);
      userSignal?.removeEventListener('abort', onUserAbort);
    }

    if (!retryable(response.status) || attempt >= options.retries) return response;
    const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
    const delay = retryAfter === undefined ? backoffMs(attempt, options.baseRetryDelayMs, options.maxRetryDelayMs) : retryAfter * 1000;
    // Waiting less than the server asked would only be refused again: hand the answer (and its retryAfter) back.
    if (delay > options.maxRetryDelayMs) return response;
    await sleep(delay, userSignal);
  }
}
