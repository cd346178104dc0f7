import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { PROBLEM_CONTENT_TYPE, problemBody, sendProblem } from './problem.ts';

/**
 * Fastify answers two URL problems before any route or error handler runs, with its own body: a path
 * parameter longer than `maxParamLength` (414) and a malformed percent-encoding (400). Every error answer of
 * the API is the same problem body (`sendProblem`), so these are turned into its 400 here.
 */
export const frameworkErrors: NonNullable<FastifyServerOptions['frameworkErrors']> = (
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
) => {
  const message =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? 'A path parameter is too long (ids are at most 100 characters)'
      : error.code === 'FST_ERR_BAD_URL'
        ? 'The URL is not valid (malformed percent-encoding)'
        : 'Bad request';
  sendProblem(reply, 400, 'VALIDATION_ERROR', message);
};

const CLIENT_ERRORS: Record<string, { status: number; text: string; message: string; code: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    text: 'Request Header Fields Too Large',
    message: 'The request line and headers are too large (at most 16 KB): send long values in a JSON body',
    code: 'PAYLOAD_TOO_LARGE',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    text: 'Request Timeout',
    message: 'The request was not received in time',
    code: 'VALIDATION_ERROR',
  },
};

/**
 * Node's HTTP parser refuses some requests (oversized heads, malformed HTTP) before Fastify sees them; Fastify
 * then writes its own body straight to the socket. This writes the API's problem body instead, under a fresh
 * request id (the caller's own header could not be read) sent as X-Request-Id too.
 */
export const clientErrorHandler: NonNullable<FastifyServerOptions['clientErrorHandler']> = (error, socket) => {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  if (code === 'ECONNRESET' || socket.destroyed) return;
  const known = CLIENT_ERRORS[code] ?? { status: 400, text: 'Bad Request', message: 'Malformed HTTP request', code: 'VALIDATION_ERROR' };
  const requestId = randomUUID();
  // The request line was not read either: the problem's instance is the whole site.
  const body = JSON.stringify(problemBody({ id: requestId, url: '/' }, known.status, known.code, known.message));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${known.status} ${known.text}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
};
