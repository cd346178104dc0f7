import app, { serverOptions } from './app.ts';
import { loadGatewayConfig } from './config.ts';

/** What starts this service in-process (the tests' stacks): its app, its server options and its config loader. */
export const gatewayService = { app, serverOptions, loadConfig: loadGatewayConfig };
