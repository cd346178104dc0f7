import type { ChartRenderPayload } from '@render/contracts';
import { describe, expect, it } from 'vitest';
import { buildPageConfig } from '../src/renderers/chart/chart-config.ts';

const config = (chartData: unknown) =>
  buildPageConfig({
    library: 'chartjs',
    chartType: 'bar',
    chartData,
    chartOptions: {},
    format: 'png',
    width: 100,
    height: 100,
    scale: 1,
    quality: 90,
    theme: 'light',
  } as ChartRenderPayload);

describe('Chart.js data sanitising', () => {
  it('keeps object-map keys shaped like option names (they are labels), values sanitised', () => {
    const data = config({
      datasets: [{ label: 'A', data: { onSale: 1, filter: 2, sort: [1, 3], events: 4, Mon: 'function x() {}' } }],
    }).data;
    expect(data).toEqual({ datasets: [{ label: 'A', data: { onSale: 1, filter: 2, sort: [1, 3], events: 4, Mon: null } }] });
  });

  it('drops prototype keys and keys that look like code from a map; the rest of the data as before', () => {
    const map = JSON.parse('{"__proto__": 1, "javascript:alert(1)": 2, "ok": 3}');
    const data = config({ labels: ['x', 'javascript:x'], datasets: [{ data: map, onClick: 'x' }, { data: [1, 2] }] }).data as {
      labels: unknown[];
      datasets: Record<string, unknown>[];
    };
    expect(data.datasets[0]).toEqual({ data: { ok: 3 } });
    expect(Object.getPrototypeOf(data.datasets[0]!.data)).toBe(Object.prototype);
    expect(data.datasets[1]).toEqual({ data: [1, 2] });
    expect(data.labels).toEqual(['x', null]);
  });

  it('bounds a map like an array of points', () => {
    const big = Object.fromEntries(Array.from({ length: 10_001 }, (_, i) => [`k${i}`, i]));
    expect(() => config({ datasets: [{ data: big }] })).toThrow(/Too many data points/);
  });
});
