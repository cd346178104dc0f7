import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

export interface RequestLogOptions {
  /** Requests whose success is logged at debug only (e.g. internal calls, part of a request logged elsewhere). */
  quiet?: (request: FastifyRequest) => boolean;
}

/**
 * Fastify's request logging with one line per request instead of two: nothing when a request comes in (by
 * default an "incoming request" line with the socket's details, through the redaction paths), and when it
 * completes its method, URL, status and time. Errors are logged as Fastify does. Given to Fastify as its
 * `logController`; `quiet` requests that succeed are logged at debug.
 */
export class RequestLogController extends LogController {
  private readonly quiet?: (request: FastifyRequest) => boolean;

  constructor(opts: RequestLogOptions = {}) {
    // Each line of a request names it by its X-Request-Id (see `requestIdOptions`).
    super({ requestIdLogLabel: 'requestId' });
    this.quiet = opts.quiet;
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) {
      super.requestCompleted(error, request, reply);
      return;
    }
    const level = reply.statusCode < 400 && this.quiet?.(request) ? 'debug' : 'info';
    const responseTime = Math.round(reply.elapsedTime * 10) / 10;
    request.log[level]({ method: request.method, url: request.url, statusCode: reply.statusCode, responseTime }, 'request completed');
  }
}
