import { listenUntilSignalled } from '@render/fastify-kit';
import Fastify from 'fastify';
import app, { serverOptions } from './app.ts';
import { loadGatewayConfig } from './config.ts';

const config = loadGatewayConfig();
const server = Fastify(serverOptions(config));
await server.register(app, { config });
await listenUntilSignalled(server, { port: config.PORT, host: config.HOST });
