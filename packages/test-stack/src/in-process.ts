import type { AddressInfo } from 'node:net';
import type { Writable } from 'node:stream';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';

/**
 * What starts one Fastify service in-process: its app plugin, its server options and its config loader, as
 * its server.ts uses them. Each service exports one from `src/service.ts`; the callers pass them in, so this
 * package depends on no service (the services' tests depend on it).
 */
export interface InProcessService<C> {
  app(scope: FastifyInstance, opts: { config: C }): Promise<void>;
  serverOptions(config: C): FastifyServerOptions;
  loadConfig(env: Record<string, string | undefined>): C;
}

/** Where a started service writes its log lines (at its LOG_LEVEL): stdout by default, or a test's stream. */
export interface LogOptions {
  logStream?: Writable;
}

export interface Listening {
  /** The Fastify server itself (the root instance). */
  server: FastifyInstance;
  /** With `scoped`, the app's own (encapsulated) instance, for tests that reach its decorators; else the server. */
  scope: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

const withLogStream = (options: FastifyServerOptions, logStream: Writable | undefined): FastifyServerOptions =>
  logStream ? { ...options, logger: { ...(options.logger as object), stream: logStream } } : options;

/**
 * The service's app on a real socket (127.0.0.1, a free port), exactly as its server.ts builds it. `beforeApp`
 * runs on the root server before the app registers (a hook that must run before the app's own). `scoped`
 * registers the app through a wrapper, so `scope` is the instance the app decorated.
 */
export async function listen<C>(
  service: InProcessService<C>,
  config: C,
  options: LogOptions & { beforeApp?: (server: FastifyInstance) => void; scoped?: boolean } = {},
): Promise<Listening> {
  const server = Fastify(withLogStream(service.serverOptions(config), options.logStream));
  options.beforeApp?.(server);
  let scope: FastifyInstance = server;
  if (options.scoped)
    await server.register(async (instance) => {
      await service.app(instance, { config });
      scope = instance;
    });
  else await server.register(service.app, { config });
  await server.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  return { server, scope, url, close: () => server.close() };
}
