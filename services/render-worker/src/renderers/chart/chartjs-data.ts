import { ChartLimits, ForbiddenChartKeys, isScriptLikeString } from '@render/contracts';
import { ChartConfigError, isPlainObject, sanitizeChartValue } from './chart-sanitize.ts';

/**
 * Chart.js `data`, sanitised like any chart JSON, except that a dataset's `data` given as an object map
 * ({ "January": 10, "onSale": 4 }) has labels for keys, not option names: the callback-slot rule (`on…`,
 * `filter`, `sort`…) must not drop them. Such keys are kept unless they are prototype keys or look like
 * code (as label strings would be), and the map is bounded like an array of points.
 */
export function sanitizeChartJsData(raw: unknown): unknown {
  if (!isPlainObject(raw) || !Array.isArray(raw.datasets)) return sanitizeChartValue(raw);
  const maps = raw.datasets.map((ds) => (isPlainObject(ds) && isPlainObject(ds.data) ? ds.data : undefined));
  const clean = sanitizeChartValue({
    ...raw,
    datasets: raw.datasets.map((ds, i) => (maps[i] ? { ...(ds as object), data: {} } : ds)),
  }) as { datasets: Record<string, unknown>[] };
  maps.forEach((map, i) => {
    if (!map) return;
    const entries = Object.entries(map);
    if (entries.length > ChartLimits.maxPointsPerSeries)
      throw new ChartConfigError(`Too many data points: at most ${ChartLimits.maxPointsPerSeries} per series`);
    const out: Record<string, unknown> = {};
    for (const [key, value] of entries) {
      if (ForbiddenChartKeys.includes(key) || isScriptLikeString(key)) continue;
      const item = sanitizeChartValue(value, 3);
      out[key.slice(0, ChartLimits.maxStringLength)] = item === undefined ? null : item;
    }
    const ds = clean.datasets[i];
    if (ds) ds.data = out;
  });
  return clean;
}
