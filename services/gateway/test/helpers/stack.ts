import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@render/logger';
import { loadWorkerConfig, type RenderWorkerHandle, startRenderWorker } from '@render/render-worker';
import Fastify, { type FastifyInstance } from 'fastify';
import templatesApp, { serverOptions as templatesServerOptions } from '../../../templates/src/app.ts';
import { loadTemplatesConfig } from '../../../templates/src/config.ts';
import app, { serverOptions } from '../../src/app.ts';
import { loadGatewayConfig } from '../../src/config.ts';
import { testRedisUrl } from './redis.ts';

export const uniquePrefix = (label: string) => `test-${label}-${randomUUID().slice(0, 8)}`;

export async function startWorker(env: Record<string, string>): Promise<RenderWorkerHandle> {
  const config = loadWorkerConfig({
    REDIS_URL: await testRedisUrl(),
    CHROMIUM_PATH: process.env.CHROMIUM_PATH,
    RENDER_PAGES: '2',
    RENDER_TIMEOUT_MS: '8000',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error',
    ...env,
  });
  return startRenderWorker(config, createLogger('render-worker-test', config.LOG_LEVEL));
}

export interface TestGateway {
  app: FastifyInstance;
  url: string;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

/** The real gateway app, listening on a real socket, exactly as server.ts builds it. */
export async function startGateway(env: Record<string, string>): Promise<TestGateway> {
  const config = loadGatewayConfig({
    REDIS_URL: await testRedisUrl(),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error',
    RENDER_DEADLINE_MS: '20000',
    // Existing tests convert anonymously and in bursts; the anonymous limit has its own test.
    ANON_RATE_LIMIT_PER_MINUTE: '1000000',
    ...env,
  });
  const server = Fastify(serverOptions(config));
  await server.register(app, { config });
  await server.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  return {
    app: server,
    url,
    post: (path, body, headers = {}) =>
      fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    close: () => server.close(),
  };
}

/** The real templates service on a real socket, on the database the auth stack created. */
export async function startTemplates(databaseUrl: string, internalToken: string): Promise<{ url: string; close(): Promise<void> }> {
  const config = loadTemplatesConfig({
    DATABASE_URL: databaseUrl,
    INTERNAL_TOKEN: internalToken,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
  });
  const server = Fastify(templatesServerOptions(config));
  await server.register(templatesApp, { config });
  await server.listen({ port: 0, host: '127.0.0.1' });
  return { url: `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`, close: () => server.close() };
}
