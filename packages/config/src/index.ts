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

export const LogLevel = Type.Union(
  ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
  { default: 'info' },
);
