import { AppError } from '@render/contracts';
import { describe, expect, it } from 'vitest';
import { checkChartShape } from '../src/convert/chart-shapes.ts';

/** Every data form Chart.js's documentation lists ("Data structures") passes the gateway's shape check. */
const accepted: [string, string, unknown][] = [
  ['primitive numbers', 'bar', { labels: ['a', 'b'], datasets: [{ data: [1, 2] }] }],
  ['numeric strings and null', 'line', { labels: ['a', 'b', 'c'], datasets: [{ data: ['1.5', null, 3] }] }],
  // Chart.js parses these to NaN and skips the point (issue 29 §3: accepted as Chart.js treats them).
  ['empty and non-numeric strings', 'bar', { labels: ['a', 'b', 'c'], datasets: [{ data: ['', 'n/a', '12.5'] }] }],
  ['category y values', 'line', { labels: ['Mon', 'Tue'], datasets: [{ data: ['Ready', 'Done'] }] }],
  [
    '[x, y] arrays with null',
    'line',
    {
      datasets: [
        {
          data: [
            [10, 20],
            [15, null],
            [20, 10],
          ],
        },
      ],
    },
  ],
  ['floating bars', 'bar', { labels: ['a'], datasets: [{ data: [[-3, 5]] }] }],
  [
    '{ x, y } with string x',
    'line',
    {
      datasets: [
        {
          data: [
            { x: '2016-12-25', y: 20 },
            { x: 'Sales', y: 10 },
          ],
        },
      ],
    },
  ],
  ['object map', 'bar', { datasets: [{ data: { January: 10, February: 20, onSale: 3 } }] }],
  ['object map of floating bars', 'bar', { datasets: [{ data: { a: [1, 4], b: [2, 6] } }] }],
  [
    'parsing keys',
    'bar',
    { datasets: [{ data: [{ id: 'Sales', nested: { value: 1500 } }], parsing: { xAxisKey: 'id', yAxisKey: 'nested.value' } }] },
  ],
  ['scatter with parsing keys', 'scatter', { datasets: [{ data: [{ a: 1, b: 2 }], parsing: { xAxisKey: 'a', yAxisKey: 'b' } }] }],
  ['scatter with time strings', 'scatter', { datasets: [{ data: [{ x: '2024-01-01', y: 2 }] }] }],
  ['bubble without r', 'bubble', { datasets: [{ data: [{ x: 1, y: 2 }] }] }],
  ['bubble as plain numbers', 'bubble', { labels: ['a', 'b'], datasets: [{ data: [4, 9] }] }],
  ['bubble as [x, y, r]', 'bubble', { datasets: [{ data: [[1, 2, 5]] }] }],
  ['pie with parsing key', 'pie', { datasets: [{ data: [{ v: { n: 3 } }], parsing: { key: 'v.n' } }] }],
];

describe('Chart.js data forms at the gateway', () => {
  it.each(accepted)('accepts %s', (_name, type, data) => {
    expect(() => checkChartShape('chartjs', type, data, {})).not.toThrow();
  });

  it.each([
    ['a boolean', { datasets: [{ data: [true] }] }, /data\[0\] must be/],
    ['a pair of objects', { datasets: [{ data: [[{ x: 1 }, 2]] }] }, /data\[0\] must be/],
    ['a boolean in a map', { datasets: [{ data: { a: 1, b: false } }] }, /data\.b must be/],
    ['a string as data', { datasets: [{ data: 'oops' }] }, /datasets\[0\] must be an object with a data array/],
  ])('still refuses %s', (_name, data, message) => {
    expect(() => checkChartShape('chartjs', 'bar', data, {})).toThrow(AppError);
    expect(() => checkChartShape('chartjs', 'bar', data, {})).toThrow(message);
  });

  it('keeps d3 data arrays-only', () => {
    expect(() => checkChartShape('d3', 'bar', { labels: ['a'], datasets: [{ data: { a: 1 } }] }, {})).toThrow(/with a data array/);
  });
});
