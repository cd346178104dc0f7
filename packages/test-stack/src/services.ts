import { randomUUID } from 'node:crypto';
import { createLogger } from '@render/logger';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { INTERNAL_TOKEN, type Stack, startAuthStack } from './auth-stack.ts';
import { type InProcessService, type LogOptions, listen } from './in-process.ts';
import { testRedisUrl } from './redis.ts';
import { inheritedEnv, testEnv } from './test-env.ts';

export const uniquePrefix = (label: string) => `test-${label}-${randomUUID().slice(0, 8)}`;

/** The render worker as its main.ts starts it (its src/service.ts). */
export interface WorkerService<C extends { LOG_LEVEL: string }, H> {
  loadConfig(env: Record<string, string | undefined>): C;
  start(config: C & { CHROMIUM_ENV: NodeJS.ProcessEnv }, logger: ReturnType<typeof createLogger>): Promise<H>;
}

/** Every service a convert or template call crosses, as each exports itself from its src/service.ts. */
export interface ServiceSet<H extends { close(): Promise<void> }> {
  // biome-ignore lint/suspicious/noExplicitAny: each service brings its own config type
  auth: InProcessService<any>;
  // biome-ignore lint/suspicious/noExplicitAny: likewise
  templates: InProcessService<any>;
  // biome-ignore lint/suspicious/noExplicitAny: likewise
  gateway: InProcessService<any>;
  // biome-ignore lint/suspicious/noExplicitAny: likewise
  worker: WorkerService<any, H>;
}

export async function startWorker<C extends { LOG_LEVEL: string }, H>(
  worker: WorkerService<C, H>,
  env: Record<string, string>,
  log: LogOptions = {},
): Promise<H> {
  const config = worker.loadConfig({
    REDIS_URL: await testRedisUrl(),
    CHROMIUM_PATH: testEnv.CHROMIUM_PATH,
    RENDER_PAGES: '2',
    RENDER_TIMEOUT_MS: '8000',
    LOG_LEVEL: testEnv.TEST_LOG_LEVEL ?? 'error',
    ...env,
  });
  // Chromium inherits the test process's environment (PATH, HOME, …), as it does in a deployed worker.
  const logger = createLogger('render-worker', config.LOG_LEVEL, log.logStream);
  return worker.start({ ...config, CHROMIUM_ENV: inheritedEnv() }, logger);
}

export interface TestGateway {
  app: FastifyInstance;
  url: string;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

/** The real gateway app, listening on a real socket, exactly as server.ts builds it. */
export async function startGateway<C>(
  gateway: InProcessService<C>,
  env: Record<string, string>,
  log: LogOptions = {},
): Promise<TestGateway> {
  const config = gateway.loadConfig({
    REDIS_URL: await testRedisUrl(),
    LOG_LEVEL: testEnv.TEST_LOG_LEVEL ?? 'error',
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
  const { server, url, close } = await listen(gateway, config, log);
  return {
    app: server,
    url,
    post: (path, body, headers = {}) =>
      fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    close,
  };
}

/**
 * The real templates service on a real socket, on the database the auth stack created. `onRequest` runs before
 * its own hooks (a test holding a call back at a moment of its choosing).
 */
export async function startTemplates<C>(
  templates: InProcessService<C>,
  databaseUrl: string,
  internalToken: string,
  options: LogOptions & { logLevel?: string; onRequest?: (request: FastifyRequest) => Promise<void> } = {},
): Promise<{ url: string; close(): Promise<void> }> {
  const config = templates.loadConfig({
    DATABASE_URL: databaseUrl,
    INTERNAL_TOKEN: internalToken,
    LOG_LEVEL: options.logLevel ?? testEnv.TEST_LOG_LEVEL ?? 'silent',
  });
  const { onRequest } = options;
  const { url, close } = await listen(templates, config, {
    logStream: options.logStream,
    beforeApp: onRequest ? (server) => server.addHook('onRequest', onRequest) : undefined,
  });
  return { url, close };
}

/** Everything a convert or template call crosses: auth (own database), templates, a worker and the gateway. */
export interface FullStack<H = unknown> {
  auth: Stack;
  templates: { url: string; close(): Promise<void> };
  worker: H;
  gateway: TestGateway;
  /** The queue prefix this stack's gateway and worker share. */
  prefix: string;
  close(): Promise<void>;
}

export async function startFullStack<H extends { close(): Promise<void> }>(
  services: ServiceSet<H>,
  label: string,
  env: { auth?: Record<string, string>; worker?: Record<string, string>; gateway?: Record<string, string> } = {},
): Promise<FullStack<H>> {
  const prefix = uniquePrefix(label);
  const auth = await startAuthStack(services.auth, env.auth);
  const templates = await startTemplates(services.templates, auth.databaseUrl, INTERNAL_TOKEN);
  // It delivers webhooks too, as ./scripts/dev's does: the gateway accepts webhooks only while a worker consumes
  // them, and refuses (400) addresses the egress policy would refuse, so only allow-listed ones are ever called.
  const worker = await startWorker(services.worker, { QUEUE_PREFIX: prefix, AUTH_SERVICE_URL: auth.url, INTERNAL_TOKEN, ...env.worker });
  const gateway = await startGateway(services.gateway, {
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

/**
 * The starters above with the services bound: what a workspace's test helper exports, so its tests call
 * `startGateway(env)` and `startFullStack(label)` as before.
 */
export function bindServices<H extends { close(): Promise<void> }>(services: ServiceSet<H>) {
  return {
    startStack: (env?: Record<string, string>, replicaOf?: Stack, options?: LogOptions) =>
      startAuthStack(services.auth, env, replicaOf, options),
    startTemplates: (databaseUrl: string, internalToken: string, options?: Parameters<typeof startTemplates>[3]) =>
      startTemplates(services.templates, databaseUrl, internalToken, options),
    startWorker: (env: Record<string, string>, log?: LogOptions) => startWorker(services.worker, env, log),
    startGateway: (env: Record<string, string>, log?: LogOptions) => startGateway(services.gateway, env, log),
    startFullStack: (label: string, env?: Parameters<typeof startFullStack>[2]) => startFullStack(services, label, env),
  };
}
