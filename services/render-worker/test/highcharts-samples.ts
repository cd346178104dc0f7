import type { HighchartsTypes } from '@render/contracts';

/**
 * A minimal `chartOptions` for every series type the contract accepts (each drawn with its own type as
 * `chart.type`), so a test can hold the page to drawing every one of them.
 */
const threeD = { options3d: { enabled: true, alpha: 15, beta: 15, depth: 50 } };
const links = {
  keys: ['from', 'to', 'weight'],
  data: [
    ['A', 'B', 5],
    ['A', 'C', 3],
    ['B', 'D', 2],
    ['C', 'D', 1],
  ],
};
const steps = [
  ['Visits', 15],
  ['Downloads', 9],
  ['Quotes', 5],
  ['Orders', 2],
];
/** [low, high] pairs, for the range series. */
const ranges = [
  [1, 3],
  [2, 5],
  [0, 4],
];
const samples = [12, 19, 3, 5, 2, 3, 9, 14, 11, 7, 16, 8, 10, 13, 4];
/** A chart's options with one series of `data` (and whatever else that series sets). */
const oneSeries = (data: unknown[], series: Record<string, unknown> = {}) => ({ series: [{ ...series, data }] });

export const highchartsSamples: Record<(typeof HighchartsTypes)[number], Record<string, unknown>> = {
  line: oneSeries([1, 3, 2, 4]),
  spline: oneSeries([1, 3, 2, 4]),
  area: oneSeries([1, 3, 2, 4]),
  areaspline: oneSeries([1, 3, 2, 4]),
  column: oneSeries([1, 3, 2, 4]),
  bar: oneSeries([1, 3, 2, 4]),
  pie: oneSeries([1, 3, 2, 4]),
  scatter: oneSeries([
    [1, 2],
    [2, 4],
    [3, 1],
  ]),
  arearange: oneSeries(ranges),
  areasplinerange: oneSeries(ranges),
  columnrange: oneSeries(ranges),
  columnpyramid: oneSeries([1, 3, 2]),
  boxplot: oneSeries([
    [1, 2, 3, 4, 5],
    [2, 3, 4, 6, 7],
  ]),
  errorbar: oneSeries([
    [1, 3],
    [2, 5],
  ]),
  bubble: oneSeries([
    [1, 2, 3],
    [2, 3, 5],
    [3, 1, 2],
  ]),
  gauge: { yAxis: { min: 0, max: 100 }, ...oneSeries([70]) },
  packedbubble: oneSeries([{ value: 5 }, { value: 10 }, { value: 3 }, { value: 7 }]),
  polygon: oneSeries([
    [1, 1],
    [2, 3],
    [3, 1],
  ]),
  waterfall: oneSeries([4, 2, -1, { isSum: true }]),
  scatter3d: {
    chart: threeD,
    ...oneSeries([
      [1, 2, 3],
      [2, 3, 1],
      [3, 1, 2],
    ]),
  },
  heatmap: {
    colorAxis: { min: 0 },
    ...oneSeries([
      [0, 0, 1],
      [0, 1, 2],
      [1, 0, 3],
      [1, 1, 4],
    ]),
  },
  treemap: oneSeries([
    { name: 'a', value: 3, color: '#2563eb' },
    { name: 'b', value: 2, color: '#f97316' },
  ]),
  sunburst: oneSeries([
    { id: 'r', name: 'root' },
    { parent: 'r', name: 'a', value: 3 },
    { parent: 'r', name: 'b', value: 2 },
  ]),
  treegraph: oneSeries([{ id: 'r' }, { id: 'a', parent: 'r' }, { id: 'b', parent: 'r' }]),
  funnel: oneSeries(steps),
  pyramid: oneSeries(steps),
  cylinder: { chart: threeD, ...oneSeries([1, 3, 2, 4]) },
  funnel3d: { chart: threeD, ...oneSeries(steps) },
  pyramid3d: { chart: threeD, ...oneSeries(steps) },
  solidgauge: { yAxis: { min: 0, max: 100 }, ...oneSeries([60]) },
  sankey: { series: [links] },
  dependencywheel: { series: [links] },
  organization: {
    chart: { inverted: true },
    ...oneSeries(
      [
        ['CEO', 'CTO'],
        ['CEO', 'CFO'],
      ],
      { keys: ['from', 'to'] },
    ),
  },
  arcdiagram: { series: [links] },
  variablepie: oneSeries([
    { y: 1, z: 2 },
    { y: 2, z: 3 },
    { y: 3, z: 1 },
  ]),
  wordcloud: oneSeries([
    { name: 'render', weight: 5 },
    { name: 'chart', weight: 3 },
    { name: 'image', weight: 2 },
  ]),
  xrange: oneSeries([
    { x: 0, x2: 3, y: 0 },
    { x: 2, x2: 5, y: 1 },
  ]),
  streamgraph: { series: [{ data: [1, 3, 2, 4] }, { data: [2, 1, 3, 2] }] },
  timeline: oneSeries([
    { name: 'Start', label: 'First' },
    { name: 'End', label: 'Second' },
  ]),
  item: oneSeries([
    ['a', 3],
    ['b', 5],
  ]),
  dumbbell: oneSeries([
    [1, 3],
    [2, 5],
  ]),
  lollipop: oneSeries([1, 3, 2]),
  networkgraph: oneSeries(
    [
      ['A', 'B'],
      ['B', 'C'],
      ['C', 'A'],
      ['C', 'D'],
    ],
    { keys: ['from', 'to'] },
  ),
  pareto: { series: [{ baseSeries: 1 }, { type: 'column', data: [5, 3, 2, 1] }] },
  histogram: { series: [{ baseSeries: 1 }, { type: 'scatter', data: samples }] },
  bellcurve: { series: [{ baseSeries: 1 }, { type: 'scatter', data: samples }] },
  vector: oneSeries([
    [1, 1, 10, 90],
    [2, 2, 20, 180],
    [3, 1, 15, 45],
  ]),
  windbarb: {
    xAxis: { type: 'datetime' },
    ...oneSeries([
      [0, 5, 90],
      [3_600_000, 10, 180],
      [7_200_000, 15, 270],
    ]),
  },
  variwide: oneSeries(
    [
      ['a', 3, 2],
      ['b', 5, 1],
    ],
    { keys: ['name', 'y', 'z'] },
  ),
  venn: oneSeries([
    { sets: ['A'], value: 2 },
    { sets: ['B'], value: 2 },
    { sets: ['A', 'B'], value: 1 },
  ]),
  bullet: oneSeries([{ y: 5, target: 7 }]),
  dotplot: oneSeries([3, 5, 2]),
  pictorial: oneSeries([3, 5], { paths: [{ definition: 'M 0 0 L 10 0 L 10 20 L 0 20 Z' }] }),
};
