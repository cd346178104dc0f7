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
const samples = [12, 19, 3, 5, 2, 3, 9, 14, 11, 7, 16, 8, 10, 13, 4];

export const highchartsSamples: Record<(typeof HighchartsTypes)[number], Record<string, unknown>> = {
  line: { series: [{ data: [1, 3, 2, 4] }] },
  spline: { series: [{ data: [1, 3, 2, 4] }] },
  area: { series: [{ data: [1, 3, 2, 4] }] },
  areaspline: { series: [{ data: [1, 3, 2, 4] }] },
  column: { series: [{ data: [1, 3, 2, 4] }] },
  bar: { series: [{ data: [1, 3, 2, 4] }] },
  pie: { series: [{ data: [1, 3, 2, 4] }] },
  scatter: {
    series: [
      {
        data: [
          [1, 2],
          [2, 4],
          [3, 1],
        ],
      },
    ],
  },
  arearange: {
    series: [
      {
        data: [
          [1, 3],
          [2, 5],
          [0, 4],
        ],
      },
    ],
  },
  areasplinerange: {
    series: [
      {
        data: [
          [1, 3],
          [2, 5],
          [0, 4],
        ],
      },
    ],
  },
  columnrange: {
    series: [
      {
        data: [
          [1, 3],
          [2, 5],
          [0, 4],
        ],
      },
    ],
  },
  columnpyramid: { series: [{ data: [1, 3, 2] }] },
  boxplot: {
    series: [
      {
        data: [
          [1, 2, 3, 4, 5],
          [2, 3, 4, 6, 7],
        ],
      },
    ],
  },
  errorbar: {
    series: [
      {
        data: [
          [1, 3],
          [2, 5],
        ],
      },
    ],
  },
  bubble: {
    series: [
      {
        data: [
          [1, 2, 3],
          [2, 3, 5],
          [3, 1, 2],
        ],
      },
    ],
  },
  gauge: { yAxis: { min: 0, max: 100 }, series: [{ data: [70] }] },
  packedbubble: { series: [{ data: [{ value: 5 }, { value: 10 }, { value: 3 }, { value: 7 }] }] },
  polygon: {
    series: [
      {
        data: [
          [1, 1],
          [2, 3],
          [3, 1],
        ],
      },
    ],
  },
  waterfall: { series: [{ data: [4, 2, -1, { isSum: true }] }] },
  scatter3d: {
    chart: threeD,
    series: [
      {
        data: [
          [1, 2, 3],
          [2, 3, 1],
          [3, 1, 2],
        ],
      },
    ],
  },
  heatmap: {
    colorAxis: { min: 0 },
    series: [
      {
        data: [
          [0, 0, 1],
          [0, 1, 2],
          [1, 0, 3],
          [1, 1, 4],
        ],
      },
    ],
  },
  treemap: {
    series: [
      {
        data: [
          { name: 'a', value: 3, color: '#2563eb' },
          { name: 'b', value: 2, color: '#f97316' },
        ],
      },
    ],
  },
  sunburst: {
    series: [
      {
        data: [
          { id: 'r', name: 'root' },
          { parent: 'r', name: 'a', value: 3 },
          { parent: 'r', name: 'b', value: 2 },
        ],
      },
    ],
  },
  treegraph: {
    series: [
      {
        data: [{ id: 'r' }, { id: 'a', parent: 'r' }, { id: 'b', parent: 'r' }],
      },
    ],
  },
  funnel: { series: [{ data: steps }] },
  pyramid: { series: [{ data: steps }] },
  cylinder: { chart: threeD, series: [{ data: [1, 3, 2, 4] }] },
  funnel3d: { chart: threeD, series: [{ data: steps }] },
  pyramid3d: { chart: threeD, series: [{ data: steps }] },
  solidgauge: { yAxis: { min: 0, max: 100 }, series: [{ data: [60] }] },
  sankey: { series: [links] },
  dependencywheel: { series: [links] },
  organization: {
    chart: { inverted: true },
    series: [
      {
        keys: ['from', 'to'],
        data: [
          ['CEO', 'CTO'],
          ['CEO', 'CFO'],
        ],
      },
    ],
  },
  arcdiagram: { series: [links] },
  variablepie: {
    series: [
      {
        data: [
          { y: 1, z: 2 },
          { y: 2, z: 3 },
          { y: 3, z: 1 },
        ],
      },
    ],
  },
  wordcloud: {
    series: [
      {
        data: [
          { name: 'render', weight: 5 },
          { name: 'chart', weight: 3 },
          { name: 'image', weight: 2 },
        ],
      },
    ],
  },
  xrange: {
    series: [
      {
        data: [
          { x: 0, x2: 3, y: 0 },
          { x: 2, x2: 5, y: 1 },
        ],
      },
    ],
  },
  streamgraph: { series: [{ data: [1, 3, 2, 4] }, { data: [2, 1, 3, 2] }] },
  timeline: {
    series: [
      {
        data: [
          { name: 'Start', label: 'First' },
          { name: 'End', label: 'Second' },
        ],
      },
    ],
  },
  item: {
    series: [
      {
        data: [
          ['a', 3],
          ['b', 5],
        ],
      },
    ],
  },
  dumbbell: {
    series: [
      {
        data: [
          [1, 3],
          [2, 5],
        ],
      },
    ],
  },
  lollipop: { series: [{ data: [1, 3, 2] }] },
  networkgraph: {
    series: [
      {
        keys: ['from', 'to'],
        data: [
          ['A', 'B'],
          ['B', 'C'],
          ['C', 'A'],
          ['C', 'D'],
        ],
      },
    ],
  },
  pareto: { series: [{ baseSeries: 1 }, { type: 'column', data: [5, 3, 2, 1] }] },
  histogram: { series: [{ baseSeries: 1 }, { type: 'scatter', data: samples }] },
  bellcurve: { series: [{ baseSeries: 1 }, { type: 'scatter', data: samples }] },
  vector: {
    series: [
      {
        data: [
          [1, 1, 10, 90],
          [2, 2, 20, 180],
          [3, 1, 15, 45],
        ],
      },
    ],
  },
  windbarb: {
    xAxis: { type: 'datetime' },
    series: [
      {
        data: [
          [0, 5, 90],
          [3_600_000, 10, 180],
          [7_200_000, 15, 270],
        ],
      },
    ],
  },
  variwide: {
    series: [
      {
        keys: ['name', 'y', 'z'],
        data: [
          ['a', 3, 2],
          ['b', 5, 1],
        ],
      },
    ],
  },
  venn: {
    series: [
      {
        data: [
          { sets: ['A'], value: 2 },
          { sets: ['B'], value: 2 },
          { sets: ['A', 'B'], value: 1 },
        ],
      },
    ],
  },
  bullet: { series: [{ data: [{ y: 5, target: 7 }] }] },
  dotplot: { series: [{ data: [3, 5, 2] }] },
  pictorial: { series: [{ data: [3, 5], paths: [{ definition: 'M 0 0 L 10 0 L 10 20 L 0 20 Z' }] }] },
};
