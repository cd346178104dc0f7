import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { drawnForPathAlone, pageKey, pageLanguage, pagePath, readPrerenderedPages } from '../web-app/prerendered-pages.ts';
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

type Encodings = Record<'br' | 'gzip' | 'identity', Buffer>;

/** A page with its runtime config, and its brotli and gzip encodings, made once at boot. */
function pageEncodings(html: string): Encodings {
  const bytes = Buffer.from(html);
  return {
    br: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    gzip: gzipSync(bytes, { level: 9 }),
    identity: bytes,
  };
}

/**
 * Serves the built web app: hashed files under /assets/ cached for a year, other files for an hour, and for
 * every other GET outside /api (never cached, so a deploy is seen at once) the page's prerendered HTML in the
 * reader's language where the build has one (`pageLanguage`: cookie, then Accept-Language), else index.html,
 * where the client router takes over. The runtime config goes into index.html once, at boot. The build writes a
 * brotli (.br) and gzip (.gz) copy beside each text asset; a client that accepts one gets it as is
 * (`preCompressed`: Content-Encoding and Vary: Accept-Encoding), with no compression work per request.
 */
async function webAppPlugin(app: FastifyInstance, opts: WebAppOptions) {
  const indexFile = join(opts.distDir, 'index.html');
  if (!existsSync(indexFile)) throw new Error(`WEB_DIST_DIR has no index.html: ${opts.distDir}`);
  const withConfig = (html: string) => pageEncodings(html.replace('<!--app-config-->', appConfigElement(opts.appConfig)));
  const indexHtml = withConfig(readFileSync(indexFile, 'utf8'));
  // The public pages as static HTML in each language (apps/web scripts/prerender.mjs): painted before any script.
  const prerendered = new Map<string, Encodings>();
  for (const [key, html] of readPrerenderedPages(opts.distDir)) prerendered.set(key, withConfig(html));

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
    globIgnore: [...(opts.publicSourceMaps ? [] : ['**/*.map']), '**/*.br', '**/*.gz', 'prerendered/**'],
    cacheControl: false,
    setHeaders: (res, path) => {
      res.header('Cache-Control', path.includes(`${join(opts.distDir, 'assets')}/`) ? IMMUTABLE : SHORT);
    },
  });

  app.setPageFallback((request, reply) => {
    const encoding = negotiate(request.headers['accept-encoding'] ?? '', ['br', 'gzip', 'identity']) ?? 'identity';
    if (encoding !== 'identity') reply.header('Content-Encoding', encoding);
    const language = pageLanguage(request.headers.cookie, request.headers['accept-language']);
    const page = (drawnForPathAlone(request.url) && prerendered.get(pageKey(language, pagePath(request.url)))) || indexHtml;
    return reply
      .code(200)
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .header('Vary', prerendered.size > 0 ? 'Accept-Encoding, Accept-Language, Cookie' : 'Accept-Encoding')
      .send(page[encoding]);
  });
}

export default fp(webAppPlugin, { name: 'web-app', fastify: '5.x', dependencies: ['error-handler'] });
