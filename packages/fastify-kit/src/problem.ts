import { type FieldError, messageIdOf, problemTitle, problemType } from '@render/contracts';
import type { FastifyReply } from 'fastify';
import { REQUEST_ID_HEADER } from './request-id.ts';

/** RFC 9457's media type: every error answer of every service has it. */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';

export interface ProblemOptions {
  /** Every refused field (validation errors). */
  fieldErrors?: FieldError[];
  /** Fields beyond the shared ones (the unverified login's `userId`). */
  extra?: Record<string, unknown>;
}

/** The request's path: a problem's `instance` (the query string may hold secrets, e.g. a signature). */
export const pathOf = (url: string): string => {
  const end = url.indexOf('?');
  return end === -1 ? url : url.slice(0, end);
};

/** `messageId` beside a message that is a catalogued sentence (contracts' message catalog), nothing otherwise. */
const idOf = (message: string): { messageId?: string } => {
  const messageId = messageIdOf(message);
  return messageId ? { messageId } : {};
};

/**
 * The one error body of the API: RFC 9457 problem details (`type`, `title`, `status`, `detail`, `instance`)
 * that keep the fields the API has always answered (`success: false`, `message`, `code`), plus the request's
 * id and, for a validation error, every refused field; a catalogued message has its id (`messageId`), which
 * clients translate by.
 */
export function problemBody(
  request: { id: string; url: string },
  status: number,
  code: string,
  message: string,
  options: ProblemOptions = {},
): Record<string, unknown> {
  return {
    ...options.extra,
    success: false,
    message,
    code,
    ...idOf(message),
    type: problemType(code),
    title: problemTitle(code),
    status,
    detail: message,
    instance: pathOf(request.url),
    requestId: request.id,
    ...(options.fieldErrors?.length
      ? { errors: options.fieldErrors.map(({ field, message }) => ({ field, message, ...idOf(message) })) }
      : {}),
  };
}

/** Sends `problemBody` with its media type and the request id (also here: framework errors run no hooks). */
export function sendProblem(reply: FastifyReply, status: number, code: string, message: string, options: ProblemOptions = {}) {
  return reply
    .status(status)
    .header(REQUEST_ID_HEADER, reply.request.id)
    .type(PROBLEM_CONTENT_TYPE)
    .send(problemBody(reply.request, status, code, message, options));
}
