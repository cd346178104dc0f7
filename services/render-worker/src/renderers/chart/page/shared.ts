/** What every library's page code shares: the container, the chart on it, colours and formats. */
import type { PageChartConfig } from './types.ts';

/** The fixed `#chart` element of the chart host page (chart-host.ts). */
export const container = document.getElementById('chart') as HTMLDivElement;

interface Destroyable {
  destroy(): void;
}

/** The chart the last job drew, until `destroy`. */
export const drawn: { current: Destroyable | null } = { current: null };

/** Empties the container so the page stays warm and holds nothing of the previous job. */
export const destroy = (): void => {
  if (drawn.current) {
    try {
      drawn.current.destroy();
    } catch {
      // A chart that failed half-way may not destroy cleanly; emptying the container below is enough.
    }
    drawn.current = null;
  }
  container.replaceChildren();
  // Highcharts keeps a global slot per chart ever made (undefined once destroyed); trim it on a warm page.
  const all = window.Highcharts?.charts;
  if (all?.every((c) => !c)) all.length = 0;
};

const probe = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;

/** Any CSS colour with the given alpha, via the canvas's own colour parser. */
export const withAlpha = (color: string, alpha: number): string => {
  probe.fillStyle = '#000000';
  probe.fillStyle = color;
  const parsed = String(probe.fillStyle);
  if (parsed.startsWith('#')) {
    const n = Number.parseInt(parsed.slice(1), 16);
    return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
  }
  const m = /^rgba?\(([^)]+)\)$/.exec(parsed);
  if (!m) return color;
  const [r, g, b] = (m[1] ?? '').split(',').map((s) => s.trim());
  return `rgba(${r}, ${g}, ${b}, ${alpha})`;
};

/** What the page exports itself (the worker asks for PNG when Chromium cannot encode the format, e.g. AVIF). */
export const isRaster = (format: PageChartConfig['format']): boolean => format === 'png' || format === 'jpeg' || format === 'webp';
export const mimeOf = (format: PageChartConfig['format']): string =>
  format === 'jpeg' ? 'image/jpeg' : format === 'webp' ? 'image/webp' : 'image/png';

export type JsonObject = Record<string, unknown>;
export const isJsonObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);
