/**
 * `retryable` separates failures of the machinery (a crashed page or browser: worth one more attempt on a
 * fresh page) from failures caused by the content itself (an endless script: retrying only doubles the
 * wait). The message is shown to the API caller, so it never carries internals.
 */
export class RenderError extends Error {
  override name = 'RenderError';
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}
