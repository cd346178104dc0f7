import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Browser-facing hardening for every answer: the gateway serves JSON, images and (in production) the web
 * app from one origin, so the CSP is the web app's (own scripts, styles and fonts; images also from data:
 * and blob: for previews; no framing, no plugins). SVG answers tighten it further where they are sent
 * (`sendImage`). HSTS is only sent over TLS (seen through a trusted proxy's X-Forwarded-Proto): over plain
 * HTTP it means nothing, and on localhost it would pin the developer's browser to https. Analytics and
 * error-reporting hosts are admitted only when configured.
 */
export interface SecurityHeadersOptions {
  /** Extra origins the web app may call (its configured analytics and error-reporting hosts). */
  connectOrigins?: string[];
  /** Extra origins the web app may load scripts from (the analytics SDK's assets host). */
  scriptOrigins?: string[];
}

async function securityHeadersPlugin(app: FastifyInstance, opts: SecurityHeadersOptions) {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'", ...(opts.scriptOrigins ?? [])],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'font-src': ["'self'", 'data:'],
        'connect-src': ["'self'", ...(opts.connectOrigins ?? [])],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    // Signed template image URLs are made for <img> tags on other sites; that route opens it to cross-origin.
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: false,
  });
  app.addHook('onRequest', async (request, reply) => {
    if (request.protocol === 'https') reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  });
}

export default fp(securityHeadersPlugin, { name: 'security-headers', fastify: '5.x' });
