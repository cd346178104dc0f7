import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { appConfigElement, type WebAppConfig } from '../lib/web-telemetry.ts';

export interface WebAppOptions {
  /** The built app (index.html, assets/, public files). */
  distDir: string;
  appConfig: WebAppConfig;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';
const SHORT = 'public, max-age=3600';

/**
 * Serves the built web app: hashed files under /assets/ cached for a year, other files for an hour, and
 * index.html (never cached, so a deploy is seen at once) for every other GET outside /api, where the
 * client router takes over. The runtime config goes into index.html once, at boot.
 */
async function webAppPlugin(app: FastifyInstance, opts: WebAppOptions) {
  const indexFile = join(opts.distDir, 'index.html');
  if (!existsSync(indexFile)) throw new Error(`WEB_DIST_DIR has no index.html: ${opts.distDir}`);
  const indexHtml = readFileSync(indexFile, 'utf8').replace('<!--app-config-->', appConfigElement(opts.appConfig));

  await app.register(fastifyStatic, {
    root: opts.distDir,
    // One route per file present at boot (the build does not change while we run), so unknown paths fall
    // through to the not-found handler, and from there to the page fallback.
    wildcard: false,
    index: false,
    allowedPath: (path) => path !== '/index.html',
    // Source maps stay on disk for error reporting, not on the public site.
    globIgnore: ['**/*.map'],
    cacheControl: false,
    setHeaders: (res, path) => {
      res.header('Cache-Control', path.includes(`${join(opts.distDir, 'assets')}/`) ? IMMUTABLE : SHORT);
    },
  });

  app.setPageFallback((_request, reply) =>
    reply.code(200).type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(indexHtml),
  );
}

export default fp(webAppPlugin, { name: 'web-app', fastify: '5.x', dependencies: ['error-handler'] });
