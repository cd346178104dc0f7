import { listenUntilSignalled } from '@render/fastify-kit';
import Fastify from 'fastify';
import app, { serverOptions } from './app.ts';
import { loadTemplatesConfig } from './config.ts';

const config = loadTemplatesConfig();
const server = Fastify(serverOptions(config));
await server.register(app, { config });
await listenUntilSignalled(server, { port: config.PORT, host: config.HOST });
