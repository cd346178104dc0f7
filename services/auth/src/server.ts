import Fastify from 'fastify';
import app, { serverOptions } from './app.ts';
import { loadAuthConfig } from './config.ts';

const config = loadAuthConfig();
const server = Fastify(serverOptions(config));
await server.register(app, { config });

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    if (closing) return;
    closing = true;
    server.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15_000).unref();
    await server.close();
    clearTimeout(force);
    process.exit(0);
  });
}

await server.listen({ port: config.PORT, host: config.HOST });
