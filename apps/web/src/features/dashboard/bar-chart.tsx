import { useEffect, useId, useRef, useState } from 'react';

export interface BarDatum {
  /** Short text under the bar (shown when there is room). */
  label: string;
  /** Full text for the bar's tooltip ("3 November 2026: 4 renders"). */
  title: string;
  value: number;
}

interface BarChartProps {
  title: string;
  /** A sentence summarising the data for screen readers. */
  description: string;
  data: BarDatum[];
  /** The legend's name for the series. */
  seriesLabel: string;
  xAxisLabel: string;
  yAxisLabel: string;
  formatValue: (value: number) => string;
  height?: number;
  testId?: string;
}

/** Follows the element's width so the chart is drawn at its real size (text stays readable on phones). */
function useWidth<T extends HTMLElement>(fallback: number) {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      if (element.clientWidth > 0) setWidth(element.clientWidth);
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

/** Whole-number ticks from 0 to at least `max`: 1, 2 or 5 times a power of ten, four steps or fewer. */
export function niceTicks(max: number): number[] {
  if (max <= 0) return [0, 1];
  const rough = max / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power);
  const ticks = [0];
  while (ticks.at(-1)! < max) ticks.push(ticks.at(-1)! + step);
  return ticks;
}

const AXIS_TEXT = '#52525b'; // zinc-600: AA on white
const GRID = '#e4e4e7'; // zinc-200
const BAR = '#4f46e5'; // accent-600

/**
 * A small hand-drawn bar chart: title and description for assistive technology, labelled axes, a legend,
 * a tooltip per bar, and tick labels thinned out so they never overlap at any width.
 */
export function BarChart({
  title,
  description,
  data,
  seriesLabel,
  xAxisLabel,
  yAxisLabel,
  formatValue,
  height = 240,
  testId,
}: BarChartProps) {
  const id = useId();
  const [ref, width] = useWidth<HTMLDivElement>(640);
  const ticks = niceTicks(Math.max(0, ...data.map((d) => d.value)));
  const top = ticks.at(-1)!;
  const tickLabelWidth = Math.max(...ticks.map((t) => formatValue(t).length)) * 7 + 8;
  const margin = { top: 12, right: 8, bottom: 44, left: 22 + tickLabelWidth };
  const plotWidth = Math.max(40, width - margin.left - margin.right);
  const plotHeight = height - margin.top - margin.bottom;
  const slot = plotWidth / Math.max(1, data.length);
  const barWidth = Math.max(2, Math.min(48, slot * 0.7));
  const longestLabel = Math.max(1, ...data.map((d) => d.label.length)) * 6.5 + 10;
  const labelEvery = Math.max(1, Math.ceil(longestLabel / slot));
  const y = (value: number) => margin.top + plotHeight - (value / top) * plotHeight;

  return (
    <figure className="min-w-0" data-testid={testId}>
      <div ref={ref} className="w-full">
        <svg
          width={width}
          height={height}
          viewBox={`0 0 ${width} ${height}`}
          role="img"
          aria-labelledby={`${id}-title ${id}-desc`}
          className="block max-w-full"
        >
          <title id={`${id}-title`}>{title}</title>
          <desc id={`${id}-desc`}>{description}</desc>
          {ticks.map((tick) => (
            <g key={tick}>
              <line x1={margin.left} x2={margin.left + plotWidth} y1={y(tick)} y2={y(tick)} stroke={GRID} />
              <text x={margin.left - 6} y={y(tick)} dy="0.32em" textAnchor="end" fontSize="12" fill={AXIS_TEXT}>
                {formatValue(tick)}
              </text>
            </g>
          ))}
          {data.map((d, i) => {
            const x = margin.left + i * slot + (slot - barWidth) / 2;
            const barTop = y(d.value);
            return (
              <g key={d.title} data-value={d.value}>
                <rect
                  x={x}
                  y={barTop}
                  width={barWidth}
                  height={Math.max(0, margin.top + plotHeight - barTop)}
                  rx={Math.min(3, barWidth / 3)}
                  fill={BAR}
                >
                  <title>{d.title}</title>
                </rect>
                {i % labelEvery === 0 && (
                  <text x={x + barWidth / 2} y={margin.top + plotHeight + 16} textAnchor="middle" fontSize="12" fill={AXIS_TEXT}>
                    {d.label}
                  </text>
                )}
              </g>
            );
          })}
          <line x1={margin.left} x2={margin.left + plotWidth} y1={margin.top + plotHeight} y2={margin.top + plotHeight} stroke="#a1a1aa" />
          <text x={margin.left + plotWidth / 2} y={height - 6} textAnchor="middle" fontSize="12" fill={AXIS_TEXT}>
            {xAxisLabel}
          </text>
          <text transform={`translate(12 ${margin.top + plotHeight / 2}) rotate(-90)`} textAnchor="middle" fontSize="12" fill={AXIS_TEXT}>
            {yAxisLabel}
          </text>
        </svg>
      </div>
      <figcaption className="mt-2 flex items-center gap-2 text-xs text-zinc-600">
        <span className="inline-block size-3 rounded-sm" style={{ background: BAR }} aria-hidden />
        {seriesLabel}
      </figcaption>
    </figure>
  );
}
