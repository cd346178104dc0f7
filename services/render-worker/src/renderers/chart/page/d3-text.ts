/** Numbers and labels of the D3 charts: compact values, axis formats, labels measured and cut to fit. */
import type { D3, LinearScale } from './d3-types.ts';

export const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

// Large numbers as compact text (1.2B, 350M, 12k), with d3's minus sign as its axes write it.
const UNITS: ReadonlyArray<readonly [number, string]> = [
  [1e12, 'T'],
  [1e9, 'B'],
  [1e6, 'M'],
  [1e3, 'k'],
];
const unitOf = (v: number): readonly [number, string] => UNITS.find(([u]) => Math.abs(v) >= u) ?? [1, ''];
const minus = (s: string): string => s.replace(/^-/, '\u2212');
const trimZeros = (s: string): string => (s.includes('.') ? s.replace(/\.?0+$/, '') : s);

/** A value label (bars, slices, tooltips): three significant digits and a unit from 1,000 up. */
export const compact = (v: unknown): string => {
  if (typeof v !== 'number' || !Number.isFinite(v)) return String(v ?? '');
  const rounded = Number(v.toPrecision(3));
  const [u, symbol] = unitOf(rounded);
  return minus(u === 1 ? String(Number(v.toPrecision(6))) : `${Number((rounded / u).toPrecision(3))}${symbol}`);
};

/** Tick labels of a linear axis: d3's own below 10,000, else compact with the decimals its step needs. */
export const axisFormat = (d3: D3, scale: LinearScale, count: number, ticks: readonly number[]): ((t: number) => string) => {
  const max = Math.max(0, ...ticks.map(Math.abs));
  if (max < 1e4) return scale.tickFormat(count);
  const step = ticks.length > 1 ? Math.abs((ticks[1] as number) - (ticks[0] as number)) : max;
  return (t) => {
    if (t === 0) return '0';
    const [u, symbol] = unitOf(t);
    return minus(trimZeros((t / u).toFixed(d3.precisionFixed(step / u)))) + symbol;
  };
};

// Text measured in a canvas (no layout per label), in the computed font of the SVG's text.
const measurer = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
let measuredFont = '';
export const textWidth =
  (font: string) =>
  (text: string): number => {
    if (measuredFont !== font) {
      measurer.font = font;
      measurer.fontKerning = 'normal'; // SVG text kerns
      measuredFont = font;
    }
    return measurer.measureText(text).width;
  };

const graphemeSegmenter = typeof Intl.Segmenter === 'function' ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : null;
const graphemes = (s: string): string[] => (graphemeSegmenter ? Array.from(graphemeSegmenter.segment(s), (g) => g.segment) : Array.from(s));

/** `text` if it fits `room`, else its longest start (whole graphemes) that fits with an ellipsis. */
export const fitText = (text: string, room: number, widthOf: (text: string) => number): string => {
  if (widthOf(text) <= room) return text;
  const parts = graphemes(text);
  let lo = 0;
  let hi = parts.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (widthOf(`${parts.slice(0, mid).join('')}\u2026`) <= room) lo = mid;
    else hi = mid - 1;
  }
  return `${parts.slice(0, lo).join('').trimEnd()}\u2026`;
};

/** The `k` longest strings (by length): enough to find the widest label of thousands without measuring all. */
export const longest = (list: readonly string[], k: number): readonly string[] =>
  list.length <= k ? list : [...list].sort((a, b) => b.length - a.length).slice(0, k);
