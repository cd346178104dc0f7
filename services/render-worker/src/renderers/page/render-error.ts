import { ProtocolError, TimeoutError } from 'puppeteer-core';

/**
 * `retryable` separates failures of the machinery (a crashed page or browser: worth one more attempt on a
 * fresh page) from failures caused by the content itself (an endless script: retrying only doubles the
 * wait). The message is shown to the API caller, so it never carries internals; `cause` keeps the
 * underlying error for the worker's log.
 */
export class RenderError extends Error {
  override name = 'RenderError';
  constructor(
    message: string,
    readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * The browser machinery failing rather than the content: the page's target, session or connection went
 * away, a DevTools call failed or went unanswered (puppeteer's ProtocolError, TargetCloseError included),
 * or a navigation replaced the document under a call (a warm page's own reset or first navigation racing
 * a job). None of these says anything about the content, so they are retried on a fresh page, never
 * answered as a content failure (422).
 */
const INFRASTRUCTURE =
  /target closed|session closed|connection closed|browser has disconnected|protocol error|execution context was destroyed|cannot find context with specified id|frame was detached|detached frame|navigation interrupted|not attached to an active page|page has been closed|increase the 'protocolTimeout'/i;

export function isInfrastructureError(err: unknown): boolean {
  // The one DevTools refusal the content causes: a screenshot of a URL Chromium will not navigate to.
  if (err instanceof ProtocolError) return !/invalid url/i.test(err.message);
  return err instanceof Error && INFRASTRUCTURE.test(err.message);
}

export const timedOut = (timeoutMs: number, cause?: unknown) =>
  new RenderError(`Rendering timed out after ${timeoutMs} ms (the content may run an endless script or wait on slow resources)`, false, {
    cause,
  });

/**
 * What a failed render answers. The content's own failures are RenderErrors already (deadline, crash,
 * bad input); a puppeteer wait that ran out is the content being slow; anything else is the machinery.
 */
export function classifyRenderFailure(err: unknown, timeoutMs: number): RenderError {
  if (err instanceof RenderError) return err;
  if (isInfrastructureError(err))
    return new RenderError('Failed to generate image: the renderer stopped unexpectedly', true, { cause: err });
  if (err instanceof TimeoutError || /timeout|timed out/i.test((err as Error)?.message ?? '')) return timedOut(timeoutMs, err);
  return new RenderError('Failed to generate image: the renderer stopped unexpectedly', true, { cause: err });
}

/** The innermost message of an error chain, for logs: a RenderError's own message is the user-facing one. */
export function failureReason(err: unknown): string {
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current instanceof Error && current.cause !== undefined; depth++) current = current.cause;
  return current instanceof Error ? current.message : String(current);
}
