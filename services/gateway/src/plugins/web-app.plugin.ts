import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { appConfigElement, type WebAppConfig } from '../web-app/web-telemetry.ts';

export interface WebAppOptions {
  /** The built app (index.html, assets/, public files). */
  distDir: string;
  appConfig: WebAppConfig;
  /** Serve the build's source maps (WEB_SOURCEMAPS=public); by default they are never served. */
  publicSourceMaps?: boolean;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';
const SHORT = 'public, max-age=3600';

/** index.html with its runtime config, and its brotli and gzip encodings, made once at boot. */
function pageEncodings(html: string): Record<'br' | 'gzip' | 'identity', Buffer> {
  const bytes = Buffer.from(html);
  return {
    br: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    gzip: gzipSync(bytes, { level: 9 }),
    identity: bytes,
  };
}

/**
 * Serves the built web app: hashed files under /assets/ cached for a year, other files for an hour, and
 * index.html (never cached, so a deploy is seen at once) for every other GET outside /api, where the
 * client router takes over. The runtime config goes into index.html once, at boot. The build writes a
 * brotli (.br) and gzip (.gz) copy beside each text asset; a client that accepts one gets it as is
 * (`preCompressed`: Content-Encoding and Vary: Accept-Encoding), with no compression work per request.
 */
async function webAppPlugin(app: FastifyInstance, opts: WebAppOptions) {
  const indexFile = join(opts.distDir, 'index.html');
  if (!existsSync(indexFile)) throw new Error(`WEB_DIST_DIR has no index.html: ${opts.distDir}`);
  const indexHtml = pageEncodings(readFileSync(indexFile, 'utf8').replace('<!--app-config-->', appConfigElement(opts.appConfig)));

  await app.register(fastifyStatic, {
    root: opts.distDir,
    // One route per file present at boot (the build does not change while we run), so unknown paths fall
    // through to the not-found handler, and from there to the page fallback.
    wildcard: false,
    index: false,
    allowedPath: (path) => path !== '/index.html',
    preCompressed: true,
    // Source maps stay on disk for error reporting, not on the public site, unless asked for
    // (WEB_SOURCEMAPS=public); the compressed copies are served in place of their originals, not at URLs of their own.
    globIgnore: [...(opts.publicSourceMaps ? [] : ['**/*.map']), '**/*.br', '**/*.gz'],
    cacheControl: false,
    setHeaders: (res, path) => {
      res.header('Cache-Control', path.includes(`${join(opts.distDir, 'assets')}/`) ? IMMUTABLE : SHORT);
    },
  });

  app.setPageFallback((request, reply) => {
    const encoding = negotiate(request.headers['accept-encoding'] ?? '', ['br', 'gzip', 'identity']) ?? 'identity';
    if (encoding !== 'identity') reply.header('Content-Encoding', encoding);
    return reply
      .code(200)
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .header('Vary', 'Accept-Encoding')
      .send(indexHtml[encoding]);
  });
}

export default fp(webAppPlugin, { name: 'web-app', fastify: '5.x', dependencies: ['error-handler'] });
