import { ChartLimits, ForbiddenChartKeys, isScriptLikeString } from '@render/contracts';

/**
 * Last line of defence before a chart config reaches the warm page. The gateway already refuses code-like
 * strings and oversized configs with a clear 400; this runs again in the worker because a job is only JSON
 * in Redis, and the page must never see code whoever queued it.
 *
 * - strings that look like code are dropped (object keys removed, array items become null);
 * - prototype keys are dropped: the libraries deep-merge options, and a polluted prototype would outlive
 *   the job on a warm page;
 * - callback slots (`formatter`, `events`, Chart.js `callbacks`, `onClick`…) are dropped: JSON cannot
 *   hold a function, and the libraries would call whatever string sits there and fail;
 * - every `useHTML` is forced to false, so Highcharts never builds HTML from user text;
 * - nesting and array length are bounded.
 */
export class ChartConfigError extends Error {
  override name = 'ChartConfigError';
}

const CALLBACK_KEY = /^(?:on[A-Z].*|.*[fF]ormatter|callback|callbacks|events|external|generateLabels|positioner|renderer|filter|sort)$/;

export function sanitizeChartValue(value: unknown, depth = 0): unknown {
  if (depth > ChartLimits.maxDepth)
    throw new ChartConfigError(`Invalid chart data format: nested more than ${ChartLimits.maxDepth} levels`);
  if (typeof value === 'string') {
    if (isScriptLikeString(value)) return undefined;
    return value.length > ChartLimits.maxStringLength ? value.slice(0, ChartLimits.maxStringLength) : value;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (value === null || typeof value === 'boolean') return value;
  if (Array.isArray(value)) {
    if (value.length > ChartLimits.maxPointsPerSeries)
      throw new ChartConfigError(`Too many data points: at most ${ChartLimits.maxPointsPerSeries} per series`);
    return value.map((item) => {
      const clean = sanitizeChartValue(item, depth + 1);
      return clean === undefined ? null : clean;
    });
  }
  if (typeof value === 'object') {
    // A fresh plain object, so nothing but own enumerable JSON keys survives.
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      if (ForbiddenChartKeys.includes(key)) continue;
      if (key === 'useHTML') {
        out[key] = false;
        continue;
      }
      if (CALLBACK_KEY.test(key) && (typeof item !== 'object' || item === null || key === 'events' || key === 'callbacks')) continue;
      const clean = sanitizeChartValue(item, depth + 1);
      if (clean !== undefined) out[key] = clean;
    }
    return out;
  }
  return undefined; // functions, symbols, bigint: not JSON
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Deep merge of JSON objects: objects merge, anything else (arrays included) is replaced by `over`. */
export function mergeJson(base: unknown, over: unknown): unknown {
  if (over === undefined) return base;
  if (!isPlainObject(base) || !isPlainObject(over)) return over;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (ForbiddenChartKeys.includes(key)) continue;
    out[key] = mergeJson(base[key], value);
  }
  return out;
}
