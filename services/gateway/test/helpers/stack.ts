import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Writable } from 'node:stream';
import { createLogger } from '@render/logger';
import { loadWorkerConfig, type RenderWorkerHandle, startRenderWorker } from '@render/render-worker';
import Fastify, { type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';
// The real account service, in-process on a throwaway database with a real SMTP server, as its own tests start it.
import { INTERNAL_TOKEN, type Stack, startStack } from '../../../auth/test/helpers/stack.ts';
import templatesApp, { serverOptions as templatesServerOptions } from '../../../templates/src/app.ts';
import { loadTemplatesConfig } from '../../../templates/src/config.ts';
import app, { serverOptions } from '../../src/app.ts';
import { loadGatewayConfig } from '../../src/config.ts';
import { testRedisUrl } from './redis.ts';

export const uniquePrefix = (label: string) => `test-${label}-${randomUUID().slice(0, 8)}`;

/** Where a started service writes its log lines (at its LOG_LEVEL): stdout by default, or a test's stream. */
export interface LogOptions {
  logStream?: Writable;
}

const withLogStream = (options: FastifyServerOptions, logStream: Writable | undefined): FastifyServerOptions =>
  logStream ? { ...options, logger: { ...(options.logger as object), stream: logStream } } : options;

export async function startWorker(env: Record<string, string>, log: LogOptions = {}): Promise<RenderWorkerHandle> {
  const config = loadWorkerConfig({
    REDIS_URL: await testRedisUrl(),
    CHROMIUM_PATH: process.env.CHROMIUM_PATH,
    RENDER_PAGES: '2',
    RENDER_TIMEOUT_MS: '8000',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error',
    ...env,
  });
  // Chromium inherits the test process's environment (PATH, HOME, …), as it does in a deployed worker.
  const logger = createLogger('render-worker', config.LOG_LEVEL, log.logStream);
  return startRenderWorker({ ...config, CHROMIUM_ENV: process.env }, logger);
}

export interface TestGateway {
  app: FastifyInstance;
  url: string;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

/** The real gateway app, listening on a real socket, exactly as server.ts builds it. */
export async function startGateway(env: Record<string, string>, log: LogOptions = {}): Promise<TestGateway> {
  const config = loadGatewayConfig({
    REDIS_URL: await testRedisUrl(),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error',
    RENDER_DEADLINE_MS: '20000',
    // Existing tests convert anonymously and in bursts; the anonymous limit has its own test.
    ANON_RATE_LIMIT_PER_MINUTE: '1000000',
    ANON_RATE_LIMIT_PER_DAY: '1000000',
    ANON_MAX_IN_FLIGHT: '1000000',
    ANON_MAX_PIXELS: '16000000',
    // Likewise with API keys (50 at once for one Free account); the in-flight limits have their own test.
    FREE_MAX_IN_FLIGHT: '1000',
    PRO_MAX_IN_FLIGHT: '1000',
    ...env,
  });
  const server = Fastify(withLogStream(serverOptions(config), log.logStream));
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

/**
 * The real templates service on a real socket, on the database the auth stack created. `onRequest` runs before
 * its own hooks (a test holding a call back at a moment of its choosing).
 */
export async function startTemplates(
  databaseUrl: string,
  internalToken: string,
  options: LogOptions & { logLevel?: string; onRequest?: (request: FastifyRequest) => Promise<void> } = {},
): Promise<{ url: string; close(): Promise<void> }> {
  const config = loadTemplatesConfig({
    DATABASE_URL: databaseUrl,
    INTERNAL_TOKEN: internalToken,
    LOG_LEVEL: options.logLevel ?? process.env.TEST_LOG_LEVEL ?? 'silent',
  });
  const server = Fastify(withLogStream(templatesServerOptions(config), options.logStream));
  if (options.onRequest) server.addHook('onRequest', options.onRequest);
  await server.register(templatesApp, { config });
  await server.listen({ port: 0, host: '127.0.0.1' });
  return { url: `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`, close: () => server.close() };
}

/** Everything a convert or template call crosses: auth (own database), templates, a worker and the gateway. */
export interface FullStack {
  auth: Stack;
  templates: { url: string; close(): Promise<void> };
  worker: RenderWorkerHandle;
  gateway: TestGateway;
  /** The queue prefix this stack's gateway and worker share. */
  prefix: string;
  close(): Promise<void>;
}

export async function startFullStack(
  label: string,
  env: { auth?: Record<string, string>; worker?: Record<string, string>; gateway?: Record<string, string> } = {},
): Promise<FullStack> {
  const prefix = uniquePrefix(label);
  const auth = await startStack(env.auth);
  const templates = await startTemplates(auth.databaseUrl, INTERNAL_TOKEN);
  // It delivers webhooks too, as ./scripts/dev's does: the gateway accepts webhooks only while a worker consumes
  // them, and refuses (400) addresses the egress policy would refuse, so only allow-listed ones are ever called.
  const worker = await startWorker({ QUEUE_PREFIX: prefix, AUTH_SERVICE_URL: auth.url, INTERNAL_TOKEN, ...env.worker });
  const gateway = await startGateway({
    QUEUE_PREFIX: prefix,
    AUTH_SERVICE_URL: auth.url,
    TEMPLATES_SERVICE_URL: templates.url,
    INTERNAL_TOKEN,
    ...env.gateway,
  });
  return {
    auth,
    templates,
    worker,
    gateway,
    prefix,
    async close() {
      await gateway.close();
      await worker.close();
      await templates.close();
      await auth.close();
    },
  };
}
