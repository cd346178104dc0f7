import { describe, expect, it } from 'vitest';
import { highchartsExportRequest } from '../src/features/playground/highcharts-export-snippet.ts';

describe('the playground’s Highcharts export server snippet', () => {
  it('puts the chart’s options, data and type in infile, as the export server takes them', () => {
    const request = highchartsExportRequest(
      {
        library: 'highcharts',
        chartType: 'column',
        chartOptions: JSON.stringify({ title: { text: 'Sales' }, chart: { backgroundColor: '#fff' } }),
        chartData: { series: [{ data: [1, 2] }] },
        format: 'webp',
        width: 640,
      },
      'https://example.test',
      'rk_key',
    );
    expect(request).toEqual({
      baseUrl: 'https://example.test',
      method: 'POST',
      path: '/highcharts',
      body: {
        infile: { title: { text: 'Sales' }, chart: { backgroundColor: '#fff', type: 'column' }, series: [{ data: [1, 2] }] },
        type: 'png',
        width: 640,
      },
      auth: { kind: 'apiKey', value: 'rk_key' },
      outputFile: 'chart.png',
    });
  });

  it('is offered for Highcharts only, and not while the typed JSON does not parse', () => {
    expect(highchartsExportRequest({ library: 'chartjs', chartData: {} }, 'x', 'k')).toBeUndefined();
    expect(highchartsExportRequest({ library: 'highcharts', chartOptions: '{ nope' }, 'x', 'k')).toBeUndefined();
  });
});
