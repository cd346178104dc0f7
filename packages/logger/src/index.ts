import { type DestinationStream, type Logger, type LoggerOptions, pino } from 'pino';

export type { Logger } from 'pino';

/** Fields that may carry secrets or user content never reach the logs. */
const redact = ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie', '*.password', '*.token'];

export function loggerOptions(name: string, level: string): LoggerOptions {
  return { name, level, redact, base: { service: name } };
}

/** A service's logger; `destination` (a test's capture) instead of stdout when given. */
export function createLogger(name: string, level = 'info', destination?: DestinationStream): Logger {
  return destination ? pino(loggerOptions(name, level), destination) : pino(loggerOptions(name, level));
}
