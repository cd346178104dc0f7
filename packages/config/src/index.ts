import { type Static, type TObject, Type } from 'typebox';
import { Value } from 'typebox/value';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Validates a service's environment once at boot. Values are converted (strings → numbers/booleans),
 * defaults applied, and every problem is reported together so a mis-set deployment fails loudly at start
 * rather than on the first request.
 */
export function loadConfig<T extends TObject>(schema: T, env: Record<string, string | undefined>): Static<T> {
  const picked: Record<string, unknown> = {};
  for (const key of Object.keys(schema.properties)) {
    const raw = env[key];
    if (raw !== undefined && raw !== '') picked[key] = raw;
  }
  const converted = Value.Convert(schema, Value.Default(schema, picked));
  const errors = [...Value.Errors(schema, converted)];
  if (errors.length > 0) {
    const lines = errors.map((e) => `  ${e.instancePath.replace(/^\//, '') || '(root)'}: ${e.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return converted as Static<T>;
}

/** Comma-separated list as an array of trimmed, non-empty items. */
export const splitList = (value: string): string[] =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * Where a service that only the gateway (or a scraper) talks to listens: loopback unless told otherwise, so a
 * development machine does not offer /metrics and /health to its whole network. The images set HOST=0.0.0.0
 * (a container is reached over its own network interface).
 */
export const ListenHost = Type.String({ minLength: 1, default: '127.0.0.1' });

export const LogLevel = Type.Union(
  ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
  { default: 'info' },
);

/** DATABASE_URL of a service that keeps its data in Postgres. */
export const PostgresUrl = Type.String({ pattern: '^postgres(ql)?://' });

/** The first settings of a service the gateway calls: where it listens, how much it logs, its Postgres. */
export const postgresServiceSettings = (port: number) => ({
  PORT: Type.Integer({ default: port }),
  HOST: ListenHost,
  LOG_LEVEL: LogLevel,
  DATABASE_URL: PostgresUrl,
});

/**
 * REDIS_TLS, in the spelling of KEDA's redis TriggerAuthentication (`enable` | `disable`), so one secret key
 * turns TLS on for the services and for the autoscaler alike (infra/k8s/base/secrets.template.yaml).
 */
export const RedisTls = Type.Union([Type.Literal('enable'), Type.Literal('disable')], { default: 'disable' });

/** REDIS_URL as the services connect to it: `rediss://` (TLS) when REDIS_TLS is `enable`, whatever scheme it was given. */
export function redisUrlWithTls(url: string, tls: 'enable' | 'disable'): string {
  return tls === 'enable' ? url.replace(/^redis:\/\//i, 'rediss://') : url;
}
