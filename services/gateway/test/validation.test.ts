import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway, uniquePrefix } from './helpers/stack.ts';
import { missingTextCases } from './helpers/validation-cases.ts';

// No worker serves this prefix: every request here must be refused before anything is queued.
let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startGateway({ QUEUE_PREFIX: uniquePrefix('validation'), BODY_LIMIT_BYTES: '65536', RENDER_DEADLINE_MS: '1000' });
});
afterAll(() => gateway?.close());

const expectError = async (res: Response, status: number, message: string | RegExp, code?: string) => {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
  const body = await res.json();
  expect(body.success).toBe(false);
  // RFC 9457's members beside the API's own: the same message as detail, the id the header carries.
  expect(body).toMatchObject({ status, detail: body.message, type: `/docs?tab=errors#${body.code.toLowerCase().replace(/_/g, '-')}` });
  expect(body.requestId).toBe(res.headers.get('x-request-id'));
  if (typeof message === 'string') expect(body.message).toBe(message);
  else expect(body.message).toMatch(message);
  if (code) expect(body.code).toBe(code);
};

const html = '<p>x</p>';

describe('HTML convert input validation', () => {
  it.each([
    ...missingTextCases('html', 'Please enter some HTML content'),
    [{ html: null }, 'Please enter some HTML content'],
    [{ html, width: 49 }, 'width must be between 50 and 4000'],
    [{ html, width: 4001 }, 'width must be between 50 and 4000'],
    [{ html, height: 49 }, 'height must be between 50 and 4000'],
    [{ html, height: 4001 }, 'height must be between 50 and 4000'],
    [{ html, width: 'wide' }, 'width must be a whole number between 50 and 4000'],
    [{ html, width: '800' }, 'width must be a whole number between 50 and 4000'],
    [{ html, width: 800.5 }, 'width must be a whole number between 50 and 4000'],
    [{ html, quality: 0 }, 'quality must be between 1 and 100'],
    [{ html, quality: 101 }, 'quality must be between 1 and 100'],
    [{ html, quality: 'high' }, 'quality must be a whole number between 1 and 100'],
    [{ html, scale: 0.05 }, 'scale must be between 0.1 and 3'],
    [{ html, scale: 3.5 }, 'scale must be between 0.1 and 3'],
    [{ html, scale: '2' }, 'scale must be a number between 0.1 and 3'],
    [{ html, format: 'gif' }, 'format must be one of: png, jpeg, webp, avif, pdf'],
    [{ html, format: 'svg' }, 'format must be one of: png, jpeg, webp, avif, pdf'],
    [{ html, format: 1 }, 'format must be one of: png, jpeg, webp, avif, pdf'],
    [{ html, output: 'xml' }, 'output must be one of: json, binary'],
    [{ html, width: 4000, height: 4000, scale: 2 }, 'width × height × scale² must not exceed 16000000 pixels'],
  ])('%j → 400 "%s"', async (body, message) => {
    await expectError(await gateway.post('/api/html-to-img/convert', body), 400, message, 'VALIDATION_ERROR');
  });

  it('accepts the exact bounds (the request reaches the queue)', async () => {
    // Nothing serves this prefix, so an accepted request ends in the 1 s deadline: proof it passed validation.
    const res = await gateway.post('/api/html-to-img/convert', { html, width: 50, height: 4000, quality: 1, scale: 0.1, format: 'jpeg' });
    await expectError(res, 504, /did not finish within 1000 ms/, 'RENDER_TIMEOUT');
  });

  it('malformed JSON → 400 Invalid JSON format', async () => {
    await expectError(await gateway.post('/api/html-to-img/convert', '{"html": "<p>'), 400, 'Invalid JSON format', 'INVALID_JSON');
  });

  it('empty JSON body → 400', async () => {
    await expectError(await gateway.post('/api/html-to-img/convert', ''), 400, /empty/, 'INVALID_JSON');
  });

  it('no body and no content type → 400', async () => {
    const res = await fetch(`${gateway.url}/api/html-to-img/convert`, { method: 'POST' });
    await expectError(res, 400, 'Request body must be a JSON object', 'VALIDATION_ERROR');
  });

  it('a JSON array or string body → 400', async () => {
    await expectError(await gateway.post('/api/html-to-img/convert', '["<p>x</p>"]'), 400, 'Request body must be a JSON object');
    await expectError(await gateway.post('/api/html-to-img/convert', '"<p>x</p>"'), 400, 'Request body must be a JSON object');
  });

  it('wrong content type → 415', async () => {
    const res = await gateway.post('/api/html-to-img/convert', 'html=<p>x</p>', { 'content-type': 'application/x-www-form-urlencoded' });
    await expectError(res, 415, /Unsupported Content-Type/, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('body over the configured limit → 413', async () => {
    const res = await gateway.post('/api/html-to-img/convert', { html: 'x'.repeat(70_000) });
    await expectError(res, 413, 'Request body is too large (limit 65536 bytes)', 'PAYLOAD_TOO_LARGE');
  });

  it('unknown route → 404 JSON', async () => {
    await expectError(await gateway.post('/api/nope', { html }), 404, 'Route POST /api/nope not found', 'NOT_FOUND');
  });
});

describe('SVG convert input validation', () => {
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>';
  it.each([
    [{}, 400, 'Please enter some SVG content'],
    [{ svg: '' }, 400, 'Please enter some SVG content'],
    [{ svg: 42 }, 400, 'Please enter some SVG content'],
    [{ svg, format: 'pdf' }, 400, 'format must be one of: png, jpeg, webp, avif, svg'],
    [{ svg, transparent: 'yes' }, 400, 'transparent must be true or false'],
    [{ svg, width: 10 }, 400, 'width must be between 50 and 4000'],
    [{ svg, quality: 1000 }, 400, 'quality must be between 1 and 100'],
    [{ svg: 'hello world' }, 422, 'Invalid SVG: the content is not an SVG document (it must start with <svg> or an XML declaration)'],
    [{ svg: '<html><body></body></html>' }, 422, 'Invalid SVG: the root element must be <svg>, found <html>'],
    [{ svg: '<svg><rect></svg>' }, 422, /^Invalid SVG: the content is not well-formed XML/],
    [{ svg: '<svg>' }, 422, /^Invalid SVG: the content is not well-formed XML/],
    [
      { svg: '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><svg>&b;</svg>' },
      422,
      'Invalid SVG: entity declarations (<!ENTITY>) are not allowed',
    ],
  ])('%j → %i', async (body, status, message) => {
    await expectError(await gateway.post('/api/svg-to-img/convert', body), status, message);
  });
});
