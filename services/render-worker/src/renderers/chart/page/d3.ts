/**
 * D3 charts drawn by the page itself from a simple data shape (documented for users in
 * packages/contracts/src/chart.ts):
 *   bar | line | area | pie | donut : { labels: (string|number)[], datasets: [{ label?, data: (number|null)[], color? }] }
 *   scatter                         : { datasets: [{ label?, data: [{ x, y, r? }], color? }] }
 *   options: title, xAxisLabel, yAxisLabel, legend, stacked, horizontal, curve, innerRadius, showValues, grid,
 *            fontSize, fontFamily, textColor
 */
import { drawCartesian } from './d3-cartesian.ts';
import type { D3Data, D3Frame, D3Options } from './d3-shapes.ts';
import { compact, num } from './d3-text.ts';
import type { D3, Selection } from './d3-types.ts';
import { container, isRaster } from './shared.ts';
import { painted } from './svg-painter.ts';
import type { Drawn, PageChartConfig } from './types.ts';

interface LegendItem {
  label: string;
  color: string;
}

/** The legend, centred in rows under the title; answers the height it took. */
const drawLegend = (svg: Selection, items: readonly LegendItem[], width: number, top: number, fontSize: number): number => {
  const legend = svg.append('g').attr('class', 'legend');
  let x = 0;
  let row = 0;
  const rowHeight = fontSize + 8;
  const maxWidth = width - 20;
  const rows: Array<Array<{ g: Selection; x: number; w: number }>> = [[]];
  for (const item of items) {
    const g = legend.append('g');
    g.append('rect').attr('width', fontSize).attr('height', fontSize).attr('fill', item.color);
    const text = g
      .append('text')
      .attr('x', fontSize + 4)
      .attr('y', fontSize - 2)
      .text(item.label);
    const w = fontSize + 4 + (text.node() as SVGTextElement).getComputedTextLength() + 16;
    if (x > 0 && x + w > maxWidth) {
      row += 1;
      x = 0;
      rows.push([]);
    }
    rows[row]?.push({ g, x, w });
    x += w;
  }
  rows.forEach((rowItems, r) => {
    const rowWidth = rowItems.reduce((s, it) => s + it.w, 0) - 16;
    const offset = (width - rowWidth) / 2;
    for (const it of rowItems) it.g.attr('transform', `translate(${offset + it.x},${top + r * rowHeight})`);
  });
  return rows.length * rowHeight + 6;
};

const drawPie = (d3: D3, svg: Selection, config: PageChartConfig, { top, labels, palette, fontSize }: D3Frame): void => {
  const { width, height } = config;
  const o = config.options as D3Options;
  const values = (config.data as D3Data).datasets[0]!.data.map((v) => Math.max(0, num(v) ?? 0));
  const r = Math.max(10, Math.min(width - 20, height - top - 10) / 2);
  const inner = config.chartType === 'donut' ? r * (o.innerRadius ?? 0.5) : 0;
  const arcs = d3.pie().sort(null)(values);
  const arc = d3.arc().innerRadius(inner).outerRadius(r);
  const g = svg
    .append('g')
    .attr('class', 'series')
    .attr('transform', `translate(${width / 2},${top + (height - top) / 2})`);
  g.selectAll('path')
    .data(arcs)
    .join('path')
    .attr('d', arc)
    .attr('fill', (_, i) => palette[i % palette.length] as string)
    .attr('stroke', config.background === 'transparent' ? 'none' : config.background)
    .attr('stroke-width', 1)
    .append('title')
    .text((d, i) => `${labels[i] ?? ''}: ${compact(d.value)}`);
  if (o.showValues) {
    const total = d3.sum(values) || 1;
    const mid = d3
      .arc()
      .innerRadius(inner + (r - inner) * 0.5)
      .outerRadius(inner + (r - inner) * 0.5);
    g.selectAll('text.value')
      .data(arcs.filter((d) => d.value / total > 0.03))
      .join('text')
      .attr('class', 'value')
      .attr('transform', (d) => `translate(${mid.centroid(d)})`)
      .attr('text-anchor', 'middle')
      .attr('dominant-baseline', 'middle')
      .attr('font-size', fontSize)
      .attr('fill', '#fff')
      .text((d) => compact(d.value));
  }
};

export const renderD3 = (config: PageChartConfig): Drawn => {
  const d3 = window.d3;
  const { width, height, chartType: type } = config;
  const data = config.data as D3Data;
  const o = config.options as D3Options;
  const palette = config.colors.length ? config.colors : d3.schemeTableau10;
  const datasets = data.datasets;
  const labels = (data.labels || []).map(String);
  const colorOf = (i: number): string => datasets[i]?.color || (palette[i % palette.length] as string);
  const fontSize = o.fontSize || 12;
  const textColor = o.textColor || '#333';
  const isPie = type === 'pie' || type === 'donut';

  const svg = d3
    .create('svg')
    .attr('xmlns', 'http://www.w3.org/2000/svg')
    .attr('width', width)
    .attr('height', height)
    .attr('viewBox', `0 0 ${width} ${height}`)
    .attr('font-family', o.fontFamily || 'Helvetica, Arial, sans-serif')
    .attr('font-size', fontSize)
    .attr('fill', textColor);
  // Attached before drawing: text can only be measured (legend, axis widths) inside the document.
  container.append(svg.node());
  svg.append('rect').attr('class', 'background').attr('width', width).attr('height', height).attr('fill', config.background);

  let top = 12;
  if (o.title) {
    svg
      .append('text')
      .attr('class', 'title')
      .attr('x', width / 2)
      .attr('y', top + fontSize * 1.4)
      .attr('text-anchor', 'middle')
      .attr('font-size', fontSize * 1.4)
      .attr('font-weight', 'bold')
      .text(o.title);
    top += fontSize * 1.4 + 10;
  }

  const legendItems: LegendItem[] = isPie
    ? labels.map((label, i) => ({ label, color: palette[i % palette.length] as string }))
    : datasets.map((ds, i) => ({ label: ds.label === undefined ? `Dataset ${i + 1}` : String(ds.label), color: colorOf(i) }));
  const showLegend = o.legend ?? (isPie || datasets.length > 1);
  if (showLegend && legendItems.length) top += drawLegend(svg, legendItems, width, top, fontSize);

  const frame: D3Frame = { top, labels, palette, colorOf, fontSize, textColor };
  if (isPie) drawPie(d3, svg, config, frame);
  else drawCartesian(d3, svg, config, frame);
  if (config.format === 'svg') return { svg: new XMLSerializer().serializeToString(svg.node()) };
  // PNG/JPEG painted from the laid-out SVG when the painter can; otherwise (and for a responsive width)
  // the page is captured.
  const raster = isRaster(config.format) && !config.responsiveWidth;
  return (raster && painted(svg.node() as SVGSVGElement, config)) || {};
};
