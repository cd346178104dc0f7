import {
  AppError,
  ErrorResponse,
  fileExtension,
  ImageJsonResponse,
  isPageContentFormat,
  MimeTypes,
  RenderLimits,
  type RenderResultMeta,
} from '@render/contracts';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { RenderOutcome } from '../plugins/render-queue.plugin.ts';

const RetryAfter = { type: 'integer', minimum: 1, description: 'Seconds to wait before sending the request again' };

/** The limits an answer reports (see README, "Limits"): RateLimit fields and, for calls with credentials, credits. */
const LimitHeaders = {
  'RateLimit-Policy': {
    type: 'string',
    description:
      'The limits this call counts against (IETF httpapi RateLimit draft), e.g. `"anon-minute";q=20;w=60, "anon-day";q=40;w=86400, ' +
      '"anon-in-flight";q=2;qu="concurrent-requests"` without credentials, `"free-in-flight";q=4;qu="concurrent-requests"` with a Free key',
  },
  RateLimit: {
    type: 'string',
    description:
      'What is left of each: `r` quota units (anonymous renders cost one per started 1024 × 1024 pixels, AVIF ×4, PDF ×2), `t` seconds until the next unit comes back',
  },
};
const CreditHeaders = {
  'X-Credits-Limit': { type: 'string', description: 'With credentials: the plan’s credits per rolling 30 days, or `unlimited`' },
  'X-Credits-Remaining': { type: 'string', description: 'With credentials: credits left after this call, or `unlimited`' },
};

const errorAnswer = (description: string, headers: Record<string, unknown>) => ({
  description,
  headers,
  content: { 'application/json': { schema: ErrorResponse } },
});

/**
 * Back-pressure: the render queue is full (`QUEUE_FULL`), or the caller has too much going on already
 * (`RATE_LIMITED`: the account's renders in flight, or the anonymous limits). Not an outage: the same
 * request may be sent again after `Retry-After`.
 */
const TooManyRequests = errorAnswer(
  'Too many requests: the render queue is full (QUEUE_FULL), the account has its plan’s limit of renders in flight, or an anonymous limit (per minute, per day, in flight) is reached (RATE_LIMITED); retry after Retry-After seconds',
  { 'Retry-After': RetryAfter, ...LimitHeaders },
);

/** Response schemas of an image route: JSON with base64, or the bytes in one of `formats`. */
export const imageResponses = (formats: Array<keyof typeof MimeTypes>, anonymous = false) => ({
  200: {
    description: 'The image (binary by default, JSON with base64 when output/outputType is "json")',
    headers: {
      ...LimitHeaders,
      ...CreditHeaders,
      'X-Render-Time': { type: 'integer', description: 'Milliseconds the worker spent rendering (0 for a cached image)' },
      'X-Queue-Time': { type: 'integer', description: 'Milliseconds the job waited in the queue' },
      'Server-Timing': {
        type: 'string',
        description: 'The same timings as the standard header browsers show: `queue;dur=12, render;dur=48.3` (render to 0.1 ms)',
      },
      'X-Cache': {
        type: 'string',
        enum: ['HIT', 'MISS'],
        description: 'With `cache` in the body: HIT when answered from the cache (no credit charged), MISS when rendered',
      },
      'X-Render-Warnings': {
        type: 'integer',
        minimum: 0,
        description:
          'How many render warnings there were (failed or refused sub-resources, console errors, a selector not found, missing glyphs, fonts that fell back); the JSON answer lists them in `data.warnings`',
      },
    },
    content: {
      'application/json': { schema: ImageJsonResponse },
      ...Object.fromEntries(formats.map((f) => [MimeTypes[f], { schema: Type.String({ format: 'binary' }) }])),
    },
  },
  400: ErrorResponse,
  401: ErrorResponse,
  402: errorAnswer('The account’s credits for the rolling 30 days are used up; the message says when the next one comes back', {
    ...CreditHeaders,
    'X-Credits-Reset': { type: 'string', format: 'date-time', description: 'When the next credit comes back' },
  }),
  ...(anonymous
    ? {
        403: errorAnswer(
          'Without credentials: the image is larger than anonymous callers may ask for, or costs more than a minute’s quota (ANONYMOUS_LIMIT); an API key gets it through',
          LimitHeaders,
        ),
      }
    : {}),
  413: ErrorResponse,
  415: ErrorResponse,
  422: ErrorResponse,
  429: TooManyRequests,
  503: errorAnswer('A service the call needs is unavailable; retry after Retry-After seconds', { 'Retry-After': RetryAfter }),
  504: ErrorResponse,
});

/** `scale` multiplies both sides, so a legal width and height can still ask for a huge image. */
export function assertPixelBudget(width: number, height: number, scale: number): void {
  if (width * height * scale * scale > RenderLimits.maxPixels) {
    throw new AppError('VALIDATION_ERROR', `width × height × scale² must not exceed ${RenderLimits.maxPixels} pixels`);
  }
}

/**
 * Headers of every SVG the API answers with. An SVG opened from its URL is a document on the gateway's
 * origin: whatever got past the sanitisers (user SVG, templates, chart output) must not run script, load
 * anything but inline styles and data: images, or be sniffed as something else. `sandbox` also gives the
 * document an opaque origin, so even a link it navigates cannot act as the gateway.
 */
export const SVG_SECURITY_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox",
  'X-Content-Type-Options': 'nosniff',
} as const;

/** Sets `SVG_SECURITY_HEADERS` (over the app-wide CSP) when the answer is, or revalidates, an SVG image. */
export function secureSvgReply(reply: FastifyReply, format: string): FastifyReply {
  // A page's content as HTML (format html) is the page's markup, as untrusted as a user's SVG.
  return format === 'svg' || format === 'html' ? reply.headers(SVG_SECURITY_HEADERS) : reply;
}

/**
 * The render's timings: `X-Render-Time` and `X-Queue-Time` in whole milliseconds, and the same as the standard
 * `Server-Timing` (`queue;dur=…, render;dur=…`), which browsers' developer tools show beside the request and
 * which carries the render to the tenth of a millisecond (a chart renders in ~10 ms: whole milliseconds hide
 * a 10% difference).
 */
export function timingHeaders(reply: FastifyReply, meta: Pick<RenderResultMeta, 'renderMs' | 'queueMs' | 'renderTime'>): FastifyReply {
  return reply
    .header('X-Render-Time', String(meta.renderMs))
    .header('X-Queue-Time', String(meta.queueMs))
    .header('Server-Timing', `queue;dur=${meta.queueMs}, render;dur=${meta.renderTime ?? meta.renderMs}`);
}

/**
 * Sends a render result as the caller asked: base64 inside JSON, or the bytes themselves. Timing headers go
 * on both so clients can tell queueing from rendering.
 */
export function sendImage(reply: FastifyReply, outcome: RenderOutcome, output: 'json' | 'binary') {
  const { image, meta } = outcome;
  timingHeaders(reply, meta);
  const warnings = meta.warnings ?? [];
  reply.header('X-Render-Warnings', String(warnings.length));
  if (output === 'json') {
    return reply.type('application/json; charset=utf-8').send({
      success: true as const,
      data: {
        image: image.toString('base64'),
        format: meta.format,
        mimeType: meta.mimeType,
        width: meta.width,
        height: meta.height,
        size: meta.size,
        warnings,
        ...(isPageContentFormat(meta.format) ? { content: image.toString('utf8') } : {}),
        ...(meta.metadata ? { metadata: meta.metadata } : {}),
      },
    });
  }
  const name = isPageContentFormat(meta.format) ? 'page' : 'image';
  return secureSvgReply(reply, meta.format)
    .type(meta.mimeType)
    .header('Content-Disposition', `inline; filename="${name}.${fileExtension(meta.format)}"`)
    .send(image);
}
