import { type Logger, type LoggerOptions, pino } from 'pino';

export type { Logger } from 'pino';

/** Fields that may carry secrets or user content never reach the logs. */
const redact = ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie', '*.password', '*.token'];

export function loggerOptions(name: string, level: string): LoggerOptions {
  return { name, level, redact, base: { service: name } };
}

export function createLogger(name: string, level = 'info'): Logger {
  return pino(loggerOptions(name, level));
}
