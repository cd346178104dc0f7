/**
 * Bar, line, area and scatter charts on value and category axes (test/d3-readability.test.ts): categories
 * by index with their labels thinned and cut to what fits, niced value axes with compact labels, and no
 * circle per point when points are too close to tell apart.
 */
import type { D3Data, D3Dataset, D3Frame, D3Options, D3Point } from './d3-shapes.ts';
import { axisFormat, compact, fitText, longest, num, textWidth } from './d3-text.ts';
import type { Axis, BandScale, Curve, D3, LinearScale, PositionScale, Selection, StackLayer } from './d3-types.ts';
import { withAlpha } from './shared.ts';
import type { PageChartConfig } from './types.ts';

const CURVES: Record<string, keyof D3> = { linear: 'curveLinear', monotone: 'curveMonotoneX', step: 'curveStep', natural: 'curveNatural' };
const pad = (lo: number, hi: number): [number, number] => [lo - (hi - lo) * 0.05, hi + (hi - lo) * 0.05];

/** A linear axis fitted to its length: the scale, its ticks and their format, and the widest label. */
interface LinearFit {
  scale: LinearScale;
  ticks: number[];
  format: (t: number) => string;
  widest: number;
}

/** Everything the parts of one cartesian chart share once its scales are chosen. */
interface Plot {
  d3: D3;
  o: D3Options;
  datasets: D3Dataset[];
  labels: string[];
  categories: number[];
  frame: D3Frame;
  horizontal: boolean;
  stacked: boolean;
  stack: StackLayer[] | null;
  lo: number;
  hi: number;
  innerW: number;
  innerH: number;
  margin: { top: number; right: number; bottom: number; left: number };
  x: PositionScale;
  y: PositionScale;
  value: LinearFit;
  scatterX: LinearFit | null;
  labelRoom: number;
  widthOf: (text: string) => number;
  gap: number;
}

/** The value domain: stacked sums included, zero for bars/areas so their baseline shows, room at the ends. */
const valueDomain = (d3: D3, type: string, datasets: D3Dataset[], labels: string[], stacked: boolean) => {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  let stack: StackLayer[] | null = null;
  if (type === 'scatter') {
    for (const ds of datasets)
      for (const p of ds.data as D3Point[])
        if (p && num(p.y) !== null) [lo, hi] = [Math.min(lo, p.y as number), Math.max(hi, p.y as number)];
  } else if (stacked) {
    const rows = labels.map((_, j) => Object.fromEntries(datasets.map((ds, i) => [i, num(ds.data[j]) ?? 0])));
    stack = d3
      .stack()
      .keys(datasets.map((_, i) => i))
      .offset(d3.stackOffsetDiverging)(rows);
    for (const layer of stack) for (const [a, b] of layer) [lo, hi] = [Math.min(lo, a, b), Math.max(hi, a, b)];
  } else {
    for (const ds of datasets)
      for (const v of ds.data) if (num(v) !== null) [lo, hi] = [Math.min(lo, v as number), Math.max(hi, v as number)];
  }
  if (!Number.isFinite(lo)) [lo, hi] = [0, 1];
  if (type !== 'scatter' && type !== 'line') [lo, hi] = [Math.min(0, lo), Math.max(0, hi)];
  if (lo === hi) [lo, hi] = [lo - 1, hi + 1];
  // Points and smoothed lines at the extremes would be cut in half by the plot edge; bars and areas get
  // the same room at their far ends (not at 0), so no bar ends on the plot's edge.
  if (type === 'scatter' || type === 'line') [lo, hi] = pad(lo, hi);
  else [lo, hi] = [lo < 0 ? lo - (hi - lo) * 0.05 : lo, hi > 0 ? hi + (hi - lo) * 0.05 : hi];
  return { lo, hi, stack };
};

/**
 * A niced linear scale with its ticks and their format: as many ticks as fit the axis (at most 8; labels
 * side by side along x, a line and more apart along y). The domain ends on ticks.
 */
const linearAxis = (
  d3: D3,
  fontSize: number,
  widthOf: (text: string) => number,
  gap: number,
  domain: readonly number[],
  length: number,
  alongX: boolean,
): LinearFit => {
  for (let count = Math.max(2, Math.min(8, Math.floor(length / (fontSize * 2.5)))); ; count--) {
    const scale = d3.scaleLinear().domain(domain).nice(count);
    const ticks = scale.ticks(count);
    const format = axisFormat(d3, scale, count, ticks);
    const widest = Math.max(0, ...ticks.map((t) => widthOf(format(t))));
    if (!alongX || count <= 2 || ticks.length * (widest + gap) <= length) return { scale, ticks, format, widest };
  }
};

/** Lays the chart out: margins, the value axis fitted to its length, and the x and y scales. */
const layout = (d3: D3, svg: Selection, config: PageChartConfig, frame: D3Frame): Plot => {
  const { width, height, chartType: type } = config;
  const o = config.options as D3Options;
  const datasets = (config.data as D3Data).datasets;
  const { labels, fontSize, top } = frame;
  const margin = { top: top + 4, right: 20, bottom: fontSize + 24 + (o.xAxisLabel ? fontSize + 8 : 0), left: 0 };
  const horizontal = type === 'bar' && o.horizontal === true;
  const stacked = (type === 'bar' || type === 'area') && o.stacked === true;
  const { lo, hi, stack } = valueDomain(d3, type, datasets, labels, stacked);

  // Labels are measured (in a canvas) in the font the axes inherit.
  const probeText = svg.append('text').attr('font-size', fontSize);
  const fontOf = getComputedStyle(probeText.node());
  const widthOf = textWidth(`${fontOf.fontStyle} ${fontOf.fontWeight} ${fontOf.fontSize} ${fontOf.fontFamily}`);
  probeText.remove();
  const gap = Math.max(4, fontSize / 2);
  const fit = (domain: readonly number[], length: number, alongX: boolean) =>
    linearAxis(d3, fontSize, widthOf, gap, domain, length, alongX);

  const n = labels.length;
  // Categories by index, so equal labels stay separate categories; the axes show their labels.
  const categories = d3.range(n);
  const innerH = Math.max(10, height - margin.top - margin.bottom);
  let value = horizontal ? null : fit([lo, hi], innerH, false);
  // Category labels left of horizontal bars get up to a third of the width; longer ones are cut.
  const labelRoom = horizontal ? Math.min(width / 3, Math.max(0, ...longest(labels, 200).map(widthOf))) : 0;
  margin.left = Math.ceil(horizontal ? labelRoom : (value as LinearFit).widest) + 16;
  if (o.yAxisLabel) margin.left += fontSize + 8;
  const innerW = Math.max(10, width - margin.left - margin.right);
  if (horizontal) value = fit([lo, hi], innerW, true);
  const valueScale = (value as LinearFit).scale;

  let x: PositionScale;
  let y: PositionScale;
  let scatterX: LinearFit | null = null;
  if (type === 'scatter') {
    let xlo = Number.POSITIVE_INFINITY;
    let xhi = Number.NEGATIVE_INFINITY;
    for (const ds of datasets)
      for (const p of ds.data as D3Point[])
        if (p && num(p.x) !== null) [xlo, xhi] = [Math.min(xlo, p.x as number), Math.max(xhi, p.x as number)];
    if (!Number.isFinite(xlo)) [xlo, xhi] = [0, 1];
    if (xlo === xhi) [xlo, xhi] = [xlo - 1, xhi + 1];
    scatterX = fit(pad(xlo, xhi), innerW, true);
    x = scatterX.scale.range([0, innerW]);
    y = valueScale.range([innerH, 0]);
  } else if (type === 'bar') {
    const band = d3.scaleBand().domain(categories).padding(0.2);
    if (horizontal) {
      y = band.range([0, innerH]);
      x = valueScale.range([0, innerW]);
    } else {
      x = band.range([0, innerW]);
      y = valueScale.range([innerH, 0]);
    }
  } else {
    x = d3.scalePoint().domain(categories).range([0, innerW]).padding(0.5);
    y = valueScale.range([innerH, 0]);
  }
  return {
    d3,
    o,
    datasets,
    labels,
    categories,
    frame,
    horizontal,
    stacked,
    stack,
    lo,
    hi,
    innerW,
    innerH,
    margin,
    x,
    y,
    value: value as LinearFit,
    scatterX,
    labelRoom,
    widthOf,
    gap,
  };
};

/**
 * The category labels shown (index → text): evenly thinned to those that fit side by side (or one line
 * apart on the left axis), each cut with an ellipsis to the room there is. Thousands of categories get
 * a few labels, not a smear of all of them.
 */
const categoryLabels = (p: Plot): Map<number, string> => {
  const { labels, innerW, innerH, gap, widthOf, margin } = p;
  const { fontSize } = p.frame;
  const n = labels.length;
  const shown = new Map<number, string>();
  if (p.horizontal) {
    const step = Math.max(1, Math.ceil((fontSize * 1.25) / (innerH / Math.max(1, n))));
    for (let j = 0; j < n; j += step) shown.set(j, fitText(labels[j] as string, p.labelRoom, widthOf));
    return shown;
  }
  const x = p.x as BandScale;
  const spacing = innerW / Math.max(1, n);
  const room = Math.min(innerW, Math.max(spacing - gap, fontSize * 10));
  const offset = x.bandwidth ? x.bandwidth() / 2 : 0;
  let widest = Math.min(room, Math.max(0, ...longest(labels, 200).map(widthOf)));
  for (;;) {
    shown.clear();
    const step = Math.max(1, Math.ceil((widest + gap) / spacing));
    let wider = widest;
    for (let j = 0; j < n; j += step) {
      const text = fitText(labels[j] as string, room, widthOf);
      const w = widthOf(text);
      wider = Math.max(wider, w);
      const at = x(j) + offset;
      // A label that would run off the image is left out (its tick stays).
      shown.set(j, at - w / 2 < -margin.left || at + w / 2 > innerW + margin.right ? '' : text);
    }
    // A label wider than the ones measured to choose the step (only the longest strings are): again.
    if (wider <= widest) return shown;
    widest = wider;
  }
};

const drawGrid = (plot: Selection, p: Plot): void => {
  const { horizontal, innerW, innerH } = p;
  const x = p.x as LinearScale;
  const y = p.y as LinearScale;
  plot
    .append('g')
    .attr('class', 'grid')
    .attr('stroke', '#e0e0e0')
    .selectAll('line')
    .data(p.value.ticks)
    .join('line')
    .attr('x1', (t) => (horizontal ? x(t) : 0))
    .attr('x2', (t) => (horizontal ? x(t) : innerW))
    .attr('y1', (t) => (horizontal ? 0 : y(t)))
    .attr('y2', (t) => (horizontal ? innerH : y(t)));
};

const drawBars = (series: Selection, p: Plot): void => {
  const { d3, o, datasets, categories, horizontal, stacked, stack } = p;
  const { fontSize, textColor, colorOf } = p.frame;
  const band = (horizontal ? p.y : p.x) as BandScale;
  const valueAxis = (horizontal ? p.x : p.y) as LinearScale;
  const sub = d3
    .scaleBand()
    .domain(datasets.map((_, i) => i))
    .range([0, band.bandwidth()])
    .padding(0.05);
  datasets.forEach((ds, i) => {
    const g = series.append('g').attr('class', 'series').attr('fill', colorOf(i));
    g.append('title').text((ds.label as string | undefined) ?? `Dataset ${i + 1}`);
    categories.forEach((j) => {
      const v = num(ds.data[j]);
      if (v === null && !stacked) return;
      const [a, b] = stacked ? (((stack as StackLayer[])[i] as StackLayer)[j] as [number, number]) : [0, v as number];
      const pos = stacked ? band(j) : band(j) + sub(i);
      const thickness = stacked ? band.bandwidth() : sub.bandwidth();
      const v0 = valueAxis(Math.min(a, b));
      const v1 = valueAxis(Math.max(a, b));
      const rect = g.append('rect');
      if (horizontal)
        rect
          .attr('x', v0)
          .attr('width', Math.max(0, v1 - v0))
          .attr('y', pos)
          .attr('height', thickness);
      else
        rect
          .attr('x', pos)
          .attr('width', thickness)
          .attr('y', v1)
          .attr('height', Math.max(0, v0 - v1));
      if (o.showValues && v !== null) {
        const t = g
          .append('text')
          .attr('fill', textColor)
          .attr('font-size', fontSize * 0.9)
          .text(compact(v));
        // Beyond the bar's far end: right of (or above) a positive bar, left of (or below) a negative one.
        if (horizontal)
          t.attr('x', v < 0 ? v0 - 4 : v1 + 4)
            .attr('y', pos + thickness / 2)
            .attr('dy', '0.32em') // centred as d3's axes centre theirs (the painter can draw it)
            .attr('text-anchor', v < 0 ? 'end' : null);
        else
          t.attr('x', pos + thickness / 2)
            .attr('y', v < 0 ? v0 + fontSize * 0.9 + 2 : v1 - 4)
            .attr('text-anchor', 'middle');
      }
    });
  });
};

interface LinePoint {
  j: number;
  v: number | null;
  layer: [number, number] | null;
}

const drawLines = (series: Selection, p: Plot, type: string): void => {
  const { d3, o, datasets, categories, stacked, stack, lo, hi, innerW } = p;
  const { colorOf } = p.frame;
  const x = p.x as BandScale;
  const y = p.y as LinearScale;
  const n = categories.length;
  const curve = d3[CURVES[o.curve as string] || 'curveLinear'] as Curve;
  datasets.forEach((ds, i) => {
    const color = colorOf(i);
    const g = series.append('g').attr('class', 'series');
    g.append('title').text((ds.label as string | undefined) ?? `Dataset ${i + 1}`);
    const points: LinePoint[] = categories.map((j) => ({ j, v: num(ds.data[j]), layer: stacked ? (stack?.[i]?.[j] ?? null) : null }));
    const defined = (pt: Pick<LinePoint, 'v'>) => pt.v !== null || stacked;
    const top = (pt: LinePoint) => (stacked ? y((pt.layer as [number, number])[1]) : y(pt.v as number));
    if (type === 'area') {
      const area = d3
        .area<LinePoint>()
        .defined(defined)
        .curve(curve)
        .x((pt) => x(pt.j))
        .y0((pt) => (stacked ? y((pt.layer as [number, number])[0]) : y(Math.max(lo, Math.min(0, hi)))))
        .y1(top);
      g.append('path')
        .attr('d', area(points))
        .attr('fill', stacked ? color : withAlpha(color, 0.35));
    }
    const line = d3
      .line<LinePoint>()
      .defined(defined)
      .curve(curve)
      .x((pt) => x(pt.j))
      .y(top);
    g.append('path').attr('d', line(points)).attr('fill', 'none').attr('stroke', color).attr('stroke-width', 2);
    // A line marks its points while they are far enough apart to tell (thousands would be a smear and
    // cost a circle each); a point whose neighbours are both missing draws no segment, so it is always
    // marked, in areas too.
    const lone = (pt: LinePoint) => defined(pt) && !defined(points[pt.j - 1] ?? { v: null }) && !defined(points[pt.j + 1] ?? { v: null });
    const marked = type === 'line' && innerW / Math.max(1, n) >= 8 ? (pt: LinePoint) => pt.v !== null : lone;
    g.selectAll('circle')
      .data(points.filter(marked))
      .join('circle')
      .attr('cx', (pt) => x(pt.j))
      .attr('cy', top)
      .attr('r', 3)
      .attr('fill', color);
  });
};

const drawScatter = (series: Selection, p: Plot): void => {
  const { colorOf } = p.frame;
  const x = p.x as LinearScale;
  const y = p.y as LinearScale;
  p.datasets.forEach((ds, i) => {
    const g = series
      .append('g')
      .attr('class', 'series')
      .attr('fill', withAlpha(colorOf(i), 0.75))
      .attr('stroke', colorOf(i));
    g.append('title').text((ds.label as string | undefined) ?? `Dataset ${i + 1}`);
    g.selectAll('circle')
      .data((ds.data as D3Point[]).filter((pt) => pt && num(pt.x) !== null && num(pt.y) !== null))
      .join('circle')
      .attr('cx', (pt) => x(pt.x as number))
      .attr('cy', (pt) => y(pt.y as number))
      .attr('r', (pt) => num(pt.r) ?? 4);
  });
};

/** Both axes (category labels thinned and cut, a cut one keeping its full text in a tooltip) and their titles. */
const drawAxes = (svg: Selection, plot: Selection, p: Plot, type: string, height: number): void => {
  const { d3, o, horizontal, scatterX, value, labels, innerW, innerH, margin } = p;
  const { fontSize, textColor } = p.frame;
  const linear = (axis: Axis, fit: LinearFit) => axis.tickValues(fit.ticks).tickFormat(fit.format);
  const shown = type === 'scatter' ? null : categoryLabels(p);
  const category = (axis: Axis) => axis.tickValues([...(shown as Map<number, string>).keys()]).tickFormat((j) => shown?.get(j) as string);
  const xAxis = plot
    .append('g')
    .attr('class', 'x-axis')
    .attr('transform', `translate(0,${innerH})`)
    .call(horizontal ? linear(d3.axisBottom(p.x), value) : scatterX ? linear(d3.axisBottom(p.x), scatterX) : category(d3.axisBottom(p.x)));
  const yAxis = plot
    .append('g')
    .attr('class', 'y-axis')
    .call(horizontal ? category(d3.axisLeft(p.y)) : linear(d3.axisLeft(p.y), value));
  // A cut label keeps its full text in a tooltip (beside the text, which the painter then still draws).
  (horizontal ? yAxis : xAxis).selectAll<number>('.tick').each(function (j) {
    if (shown && shown.get(j) !== labels[j])
      d3.select(this)
        .insert('title', ':first-child')
        .text(labels[j] as string);
  });
  for (const axis of [xAxis, yAxis]) {
    axis.attr('font-size', fontSize).attr('font-family', null);
    axis.selectAll('text').attr('fill', textColor);
    axis.selectAll('line,path').attr('stroke', '#888');
  }
  if (o.xAxisLabel) {
    svg
      .append('text')
      .attr('class', 'x-label')
      .attr('x', margin.left + innerW / 2)
      .attr('y', height - 8)
      .attr('text-anchor', 'middle')
      .text(o.xAxisLabel);
  }
  if (o.yAxisLabel) {
    svg
      .append('text')
      .attr('class', 'y-label')
      .attr('transform', `translate(${fontSize + 4},${margin.top + innerH / 2}) rotate(-90)`)
      .attr('text-anchor', 'middle')
      .text(o.yAxisLabel);
  }
};

export const drawCartesian = (d3: D3, svg: Selection, config: PageChartConfig, frame: D3Frame): void => {
  const type = config.chartType;
  const p = layout(d3, svg, config, frame);
  const plot = svg.append('g').attr('class', 'plot').attr('transform', `translate(${p.margin.left},${p.margin.top})`);
  if (p.o.grid ?? true) drawGrid(plot, p);
  const series = plot.append('g').attr('class', 'series-group');
  if (type === 'bar') drawBars(series, p);
  else if (type === 'line' || type === 'area') drawLines(series, p, type);
  else drawScatter(series, p);
  drawAxes(svg, plot, p, type, config.height);
};
