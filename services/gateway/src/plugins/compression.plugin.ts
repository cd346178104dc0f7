import { constants } from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * What is worth compressing: text, JSON and XML (SVG images and JSON with a base64 image included). Images
 * in PNG, JPEG, WebP and AVIF and PDF documents are compressed already: they go as they are.
 */
export const COMPRESSIBLE = /^text\/(?!event-stream)|[/+]json(?:;|$)|[/+]xml(?:;|$)/;

/** Below this many bytes an answer goes as it is: compressing would save less than it costs. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * gzip or brotli, as the client's Accept-Encoding prefers, for the compressible answers of every route
 * (`@fastify/compress`: it attaches itself to the routes declared after it, so it is registered before them).
 * Brotli at quality 4 (11, its default, costs tens of times more CPU for a few per cent), gzip at level 6. An
 * answer that already has a Content-Encoding (the web app's precompressed files) is left alone. Request
 * bodies are not decompressed: the API takes plain JSON.
 */
async function compressionPlugin(app: FastifyInstance) {
  await app.register(compress, {
    global: true,
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: COMPRESSION_THRESHOLD_BYTES,
    customTypes: COMPRESSIBLE,
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  });
}

export default fp(compressionPlugin, { name: 'compression', fastify: '5.x' });
