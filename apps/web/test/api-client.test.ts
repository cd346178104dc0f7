import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, apiJson, ErrorTexts, errorText, setTokenSource } from '../src/lib/api-client.ts';

// A real HTTP server on 127.0.0.1: each path answers one of the shapes the rule distinguishes.
let server: Server;
let base = '';
const seen: Array<{ url?: string; authorization?: string; accept?: string }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ url: req.url, authorization: req.headers.authorization, accept: req.headers.accept });
    if (req.url === '/with-message') {
      // The API's problem body (RFC 9457), as every service answers errors.
      res.writeHead(400, { 'content-type': 'application/problem+json; charset=utf-8', 'x-request-id': 'r-1' }).end(
        JSON.stringify({
          success: false,
          message: 'Invalid email address',
          code: 'VALIDATION_ERROR',
          type: '/docs?tab=errors#validation-error',
          title: 'Invalid request',
          status: 400,
          detail: 'Invalid email address',
          instance: '/with-message',
          requestId: 'r-1',
          errors: [{ field: 'email', message: 'Invalid email address' }],
        }),
      );
    } else if (req.url === '/without-message') {
      res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ success: false }));
    } else if (req.url === '/not-json') {
      res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>');
    } else if (req.url === '/ok') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, value: 42 }));
    } else if (req.url === '/ok-not-json') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('nope');
    } else {
      req.socket.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const failure = async (path: string) => {
  try {
    await apiJson(`${base}${path}`);
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('expected a failure');
};

describe('API client error rule (docs/spec/errors.md)', () => {
  it("uses the server's message field when the answer has one (a problem+json body)", async () => {
    const error = await failure('/with-message');
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(400);
    expect(errorText(error)).toBe('Invalid email address');
    expect(error.data).toMatchObject({ code: 'VALIDATION_ERROR', requestId: 'r-1' });
    expect(seen.at(-1)?.accept).toBe('application/json, application/problem+json');
  });

  it("answers 'An error occurred' for an answer without a message", async () => {
    expect(errorText(await failure('/without-message'))).toBe(ErrorTexts.generic);
    expect(errorText(await failure('/not-json'))).toBe('An error occurred');
  });

  it('answers the connection message when no response arrives', async () => {
    const error = await failure('/hang-up');
    expect(error.status).toBe(0);
    expect(errorText(error)).toBe('No response from server. Please check your internet connection.');
  });

  it("otherwise keeps the error's own message, or 'An unexpected error occurred'", () => {
    expect(errorText(new Error('Clipboard unavailable'))).toBe('Clipboard unavailable');
    expect(errorText(new Error(''))).toBe('An unexpected error occurred');
    expect(errorText('weird')).toBe('An unexpected error occurred');
  });

  it('answers the parsed body of a success, and says so when it is not JSON', async () => {
    await expect(apiJson(`${base}/ok`)).resolves.toEqual({ success: true, value: 42 });
    await expect(apiJson(`${base}/ok-not-json`)).rejects.toThrow('Invalid response structure');
  });

  it('sends the stored token as a bearer token, except on anonymous calls', async () => {
    setTokenSource(() => 'tok-123');
    await apiJson(`${base}/ok`);
    await apiJson(`${base}/ok`, { anonymous: true });
    setTokenSource(() => null);
    expect(seen.at(-2)?.authorization).toBe('Bearer tok-123');
    expect(seen.at(-1)?.authorization).toBeUndefined();
  });
});
