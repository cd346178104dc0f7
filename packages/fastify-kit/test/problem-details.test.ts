import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { AppError, AuthMessages, withMessages } from '@render/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ajvOptions, clientErrorHandler, errorHandler, frameworkErrors, RequestLogController, requestIdOptions } from '../src/index.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const Body = Type.Object({
  name: withMessages(Type.String({ minLength: 1 }), { required: 'Please enter a name', minLength: 'Please enter a name' }),
  width: withMessages(Type.Integer({ minimum: 50, maximum: 4000 }), { range: 'width must be between 50 and 4000' }),
  tags: Type.Optional(Type.Array(Type.String(), { maxItems: 1_000_000 })),
  clip: Type.Optional(Type.Object({ x: Type.Integer(), y: Type.Integer() })),
});

/** Log lines as the service writes them (JSON, one per line). */
const lines: Array<Record<string, unknown>> = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
    done();
  },
});

let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  app = Fastify({
    logger: { level: 'info', stream: logStream },
    logController: new RequestLogController(),
    ajv: ajvOptions,
    bodyLimit: 4096,
    frameworkErrors,
    clientErrorHandler,
    ...requestIdOptions,
  });
  await app.register(errorHandler);
  app.post('/things', { schema: { body: Body } }, async () => ({ success: true }));
  app.get('/things/:id', async (request) => {
    request.log.info('looking the thing up');
    throw new AppError('NOT_FOUND', 'Thing not found');
  });
  app.get('/taken', async (request) => {
    const detail = (request.query as { detail?: string }).detail ? ' (twice)' : '';
    throw new AppError('CONFLICT', `${AuthMessages.emailTaken}${detail}`);
  });
  app.get('/busy', async () => {
    throw new AppError('QUEUE_FULL', 'The render queue is full right now; please retry in 2 s', undefined, { retryAfterSeconds: 2 });
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(() => app.close());

const post = (body: string, headers: Record<string, string> = {}) =>
  fetch(`${base}/things`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

describe('error answers are RFC 9457 problems that keep the API’s fields', () => {
  it('an AppError: type, title, status, detail, instance, and success, message, code, requestId', async () => {
    const res = await fetch(`${base}/things/42?sig=secret`, { headers: { 'x-request-id': 'trace-abc.123' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(res.headers.get('x-request-id')).toBe('trace-abc.123');
    expect(await res.json()).toEqual({
      success: false,
      message: 'Thing not found',
      code: 'NOT_FOUND',
      type: '/docs?tab=errors#not-found',
      title: 'Not found',
      status: 404,
      detail: 'Thing not found',
      // The path only: a query string may hold a signature.
      instance: '/things/42',
      requestId: 'trace-abc.123',
    });
  });

  it('keeps Retry-After on back-pressure answers', async () => {
    const res = await fetch(`${base}/busy`);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(await res.json()).toMatchObject({ code: 'QUEUE_FULL', status: 429, type: '/docs?tab=errors#queue-full' });
  });

  it('a validation error lists every refused field; message is the first one’s sentence', async () => {
    const res = await post(JSON.stringify({ width: 10, clip: { x: 'left', y: 1 } }));
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.message).toBe('Please enter a name');
    expect(body.detail).toBe('Please enter a name');
    expect(body.errors).toEqual([
      { field: 'name', message: 'Please enter a name' },
      // A catalogued sentence (packages/contracts message-catalog.ts) has its id; the others none.
      { field: 'width', message: 'width must be between 50 and 4000', messageId: 'field.widthRange' },
      { field: 'clip.x', message: 'clip.x must be integer' },
    ]);
    expect(body).not.toHaveProperty('messageId');
  });

  it('a catalogued message carries its id, an AppError’s as a framework error’s', async () => {
    const taken = await (await fetch(`${base}/taken`)).json();
    expect(taken).toMatchObject({ code: 'CONFLICT', message: AuthMessages.emailTaken, messageId: 'auth.emailTaken' });
    const badJson = await (await post('{"name":')).json();
    expect(badJson).toMatchObject({ code: 'INVALID_JSON', message: 'Invalid JSON format', messageId: 'problem.invalidJson' });
    // A message that only starts with a catalogued sentence is not that sentence.
    const prefixed = await (await fetch(`${base}/taken?detail=1`)).json();
    expect(prefixed.message).toBe(`${AuthMessages.emailTaken} (twice)`);
    expect(prefixed).not.toHaveProperty('messageId');
  });

  it('a body that is not an object is one error about the body', async () => {
    const body = await (await post('[1,2]')).json();
    expect(body).toMatchObject({ code: 'VALIDATION_ERROR', message: 'Request body must be a JSON object' });
    expect(body.errors).toEqual([{ field: 'body', message: 'Request body must be a JSON object' }]);
  });

  it('a field with thousands of wrong items is still one error (the check stops at each field’s first)', async () => {
    // Every item is wrong: with Ajv's allErrors this would be one error object per item.
    const tags = JSON.stringify(Array.from({ length: 1500 }, () => 0));
    const res = await fetch(`${base}/things`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"name":"x","width":100,"tags":${tags}}`.padEnd(3000, ' '),
    });
    const body = await res.json();
    expect(body.errors).toEqual([{ field: 'tags.0', message: 'tags.0 must be string' }]);
  });
});

describe('request ids', () => {
  it('a caller’s id that is too long or unsafe is replaced by a fresh UUID', async () => {
    for (const sent of ['x'.repeat(129), 'has space', 'quote"d', 'new\\nline']) {
      const res = await fetch(`${base}/things/1`, { headers: { 'x-request-id': sent } });
      const id = res.headers.get('x-request-id') ?? '';
      expect(id, sent).toMatch(UUID);
      expect((await res.json()).requestId).toBe(id);
    }
  });

  it('every log line of a request carries its id', async () => {
    lines.length = 0;
    await fetch(`${base}/things/7`, { headers: { 'x-request-id': 'log-me-7' } });
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map((line) => line.msg)).toEqual(['looking the thing up', 'request completed']);
    for (const line of lines) expect(line).toMatchObject({ requestId: 'log-me-7' });
  });
});

describe('errors answered before any route', () => {
  it('404 and 405 are problems with the request id', async () => {
    const missing = await fetch(`${base}/nowhere`, { headers: { 'x-request-id': 'r-404' } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(missing.headers.get('x-request-id')).toBe('r-404');
    expect(await missing.json()).toMatchObject({ code: 'NOT_FOUND', status: 404, instance: '/nowhere', requestId: 'r-404' });

    const wrong = await fetch(`${base}/things`, { method: 'DELETE', headers: { 'x-request-id': 'r-405' } });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
    expect(wrong.headers.get('x-request-id')).toBe('r-405');
    expect(await wrong.json()).toMatchObject({ code: 'METHOD_NOT_ALLOWED', title: 'Method not allowed', requestId: 'r-405' });
  });

  it('413: a body over the limit', async () => {
    const res = await post(JSON.stringify({ name: 'x'.repeat(5000), width: 100 }), { 'x-request-id': 'r-413' });
    expect(res.status).toBe(413);
    expect(res.headers.get('x-request-id')).toBe('r-413');
    expect(await res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', status: 413, requestId: 'r-413' });
  });

  it('a malformed percent-encoding (Fastify’s framework error)', async () => {
    const res = await fetch(`${base}/things/%E0%A4%A`, { headers: { 'x-request-id': 'r-bad-url' } });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.headers.get('x-request-id')).toBe('r-bad-url');
    expect(await res.json()).toMatchObject({ code: 'VALIDATION_ERROR', requestId: 'r-bad-url', status: 400 });
  });

  it('431: headers Node refuses before Fastify sees them get a problem and a fresh request id', async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(base).port), '127.0.0.1');
      let answer = '';
      socket.on('data', (chunk) => {
        answer += chunk;
      });
      socket.on('close', () => resolve(answer));
      socket.on('error', reject);
      socket.write(`GET /things/1 HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    });
    const [head = '', body = ''] = raw.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 431 /);
    expect(head).toMatch(/content-type: application\/problem\+json/i);
    const id = /x-request-id: (\S+)/i.exec(head)?.[1];
    expect(id).toMatch(UUID);
    expect(JSON.parse(body)).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE', status: 431, requestId: id });
  });
});
