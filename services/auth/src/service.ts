import app, { serverOptions } from './app.ts';
import { loadAuthConfig } from './config.ts';

/** What starts this service in-process (the tests' stacks): its app, its server options and its config loader. */
export const authService = { app, serverOptions, loadConfig: loadAuthConfig };
