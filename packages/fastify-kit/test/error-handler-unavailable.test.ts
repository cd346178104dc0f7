import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { errorHandler } from '../src/index.ts';

/** A route failing the way pg does while Postgres is down or restarting. */
async function answerFor(error: Error & { code?: string }) {
  const app = Fastify();
  await app.register(errorHandler);
  app.get('/fails', async () => {
    throw error;
  });
  const res = await app.inject({ method: 'GET', url: '/fails' });
  await app.close();
  return res;
}

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('errors of a dependency that is down', () => {
  it.each([
    ['connection refused', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['server shutting down (57P01)', withCode('terminating connection due to administrator command', '57P01')],
    ['server starting up (57P03)', withCode('the database system is starting up', '57P03')],
    ['connection cut', new Error('Connection terminated unexpectedly')],
    ['pool connect timeout', new Error('timeout exceeded when trying to connect')],
  ])('%s is a 503 the caller may retry', async (_name, error) => {
    const res = await answerFor(error);
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(res.json()).toEqual({
      success: false,
      code: 'SERVICE_UNAVAILABLE',
      message: 'The service is temporarily unavailable; please retry shortly',
      type: '/docs?tab=errors#service-unavailable',
      title: 'Service unavailable',
      status: 503,
      detail: 'The service is temporarily unavailable; please retry shortly',
      instance: '/fails',
      requestId: res.headers['x-request-id'],
    });
  });

  it('any other error stays a 500 that says nothing of its cause', async () => {
    const res = await answerFor(withCode('relation "users" does not exist', '42P01'));
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      success: false,
      code: 'INTERNAL_ERROR',
      message: 'An unexpected error occurred',
      messageId: 'problem.unexpected',
      type: '/docs?tab=errors#internal-error',
      title: 'Internal error',
      status: 500,
      detail: 'An unexpected error occurred',
      instance: '/fails',
      requestId: res.headers['x-request-id'],
    });
  });
});
