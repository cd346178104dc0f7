import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from '@render/contracts';
import type { FastifyRequest } from 'fastify';

/** Constant-time comparison of two secrets of any length (hashing first evens out the lengths). */
export const safeEqual = (a: string, b: string): boolean =>
  timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());

export const INTERNAL_TOKEN_HEADER = 'x-internal-token';

/**
 * onRequest hook for service-to-service routes: only a caller holding the shared internal token (the
 * gateway) gets through. What such a caller asserts (the user it acts for) is trusted because of it.
 */
export const requireInternalToken = (expected: string) => async (request: FastifyRequest) => {
  const token = request.headers[INTERNAL_TOKEN_HEADER];
  if (typeof token !== 'string' || !safeEqual(token, expected)) throw new AppError('UNAUTHORIZED', 'Internal token required');
};
