import { type ChartRenderPayload, isCssColor, isScriptLikeString } from '@render/contracts';
import { describe, expect, it } from 'vitest';
import { buildPageConfig, DARK_BACKGROUND } from '../src/renderers/chart/chart-config.ts';
import { ChartConfigError, mergeJson, sanitizeChartValue } from '../src/renderers/chart/chart-sanitize.ts';

describe('isScriptLikeString', () => {
  it.each([
    ['function(){return 1}', true],
    ['  async function x() {}', true],
    ['(a, b) => a + b', true],
    ['x=>x', true],
    ['async (p) => p', true],
    ['javascript:alert(1)', true],
    ['JavaScript :void(0)', true],
    ['<a href="javascript:x">', true],
    ['hello <SCRIPT src=x>', true],
    ['Cost => Price', true], // a one-parameter arrow function; indistinguishable from code
    ['2023 => 2024', false],
    ['Sales (EU) => forecast', false],
    ['functional programming', false],
    ['Revenue (k$)', false],
    ['<b>bold</b>', false],
  ])('%j → %s', (value, expected) => {
    expect(isScriptLikeString(value)).toBe(expected);
  });
});

describe('isCssColor', () => {
  it.each(['#f00', '#ff0000', '#ff000080', 'red', 'transparent', 'rgb(1, 2, 3)', 'rgba(1,2,3,0.5)', 'hsl(120 50% 50% / 0.3)'])(
    'accepts %s',
    (c) => {
      expect(isCssColor(c)).toBe(true);
    },
  );
  it.each(['url(http://x/)', 'red;background:url(x)', 'var(--x)', '"red"', 'rgb(1,2,3))', '#ff00f', ''])('refuses %s', (c) => {
    expect(isCssColor(c)).toBe(false);
  });
});

describe('sanitizeChartValue', () => {
  it('drops code-like strings: object keys go, array items become null', () => {
    expect(
      sanitizeChartValue({ title: 'ok', bad: 'function(){}', list: ['a', '() => 1', 'javascript:x'], nested: { s: '<script>x</script>' } }),
    ).toEqual({ title: 'ok', list: ['a', null, null], nested: {} });
  });

  it('drops prototype keys so nothing reaches Object.prototype on the warm page', () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": 1}, "a": {"constructor": {"prototype": {"x": 1}}, "b": 1}}');
    const clean = sanitizeChartValue(parsed) as Record<string, unknown>;
    expect(Object.keys(clean)).toEqual(['a']);
    expect(clean.a).toEqual({ b: 1 });
    expect(Object.getPrototypeOf(clean)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('forces every useHTML to false, at any depth', () => {
    expect(sanitizeChartValue({ title: { useHTML: true }, series: [{ dataLabels: { useHTML: 'yes' } }] })).toEqual({
      title: { useHTML: false },
      series: [{ dataLabels: { useHTML: false } }],
    });
  });

  it('drops callback slots that hold strings, and event/callback maps entirely', () => {
    const clean = sanitizeChartValue({
      tooltip: { formatter: 'return 1', pointFormatter: 'x', pointFormat: '{point.y}' },
      chart: { events: { load: 'x' } },
      plugins: { tooltip: { callbacks: { label: 'x' } } },
      onClick: 'x',
      scales: { y: { ticks: { callback: 'x' } } },
      dataLabels: { filter: { property: 'y', operator: '>', value: 1 } },
      legend: { labels: { filter: 'x', sort: 'y' } },
    });
    expect(clean).toEqual({
      tooltip: { pointFormat: '{point.y}' },
      chart: {},
      plugins: { tooltip: {} },
      scales: { y: { ticks: {} } },
      dataLabels: { filter: { property: 'y', operator: '>', value: 1 } },
      legend: { labels: {} },
    });
  });

  it('keeps plain data untouched', () => {
    const data = { labels: ['a', 1], datasets: [{ label: 'x', data: [1, null, { x: 1, y: 2 }, [1, 2]], hidden: false }] };
    expect(sanitizeChartValue(data)).toEqual(data);
  });

  it('bounds nesting and array length', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = [deep];
    expect(() => sanitizeChartValue(deep)).toThrow(ChartConfigError);
    expect(() => sanitizeChartValue({ data: new Array(10_001).fill(1) })).toThrow(/Too many data points/);
  });
});

describe('mergeJson', () => {
  it('merges objects, replaces arrays and ignores prototype keys', () => {
    const over = JSON.parse('{"a": {"y": 2}, "list": [3], "__proto__": {"p": 1}}');
    expect(mergeJson({ a: { x: 1 }, list: [1, 2] }, over)).toEqual({ a: { x: 1, y: 2 }, list: [3] });
  });
});

const payload = (over: Partial<ChartRenderPayload>): ChartRenderPayload => ({
  library: 'chartjs',
  chartType: 'bar',
  chartData: { labels: ['a'], datasets: [{ data: [1] }] },
  chartOptions: {},
  format: 'png',
  width: 300,
  height: 200,
  quality: 90,
  scale: 1,
  theme: 'light',
  ...over,
});

const highchartsConfig = (over: Partial<ChartRenderPayload>) => buildPageConfig(payload({ library: 'highcharts', ...over }));

describe('buildPageConfig', () => {
  it('Chart.js: animations off and fixed size, whatever the options say; bad palette entries dropped', () => {
    const config = buildPageConfig(
      payload({
        chartOptions: { animation: { duration: 5000 }, responsive: true, plugins: { legend: { display: false } } },
        colors: ['#f00', 'url(x)'],
      }),
    );
    expect(config.options).toMatchObject({
      animation: false,
      responsive: false,
      maintainAspectRatio: false,
      plugins: { legend: { display: false } },
    });
    expect(config.colors).toEqual(['#f00']);
    expect(config.background).toBe('#ffffff');
  });

  it('Highcharts: series from chartData, forced size, no animation, palette and background', () => {
    const config = highchartsConfig({
      chartType: 'column',
      chartData: [{ name: 'A', data: [1], animation: { duration: 900 } }],
      chartOptions: {
        chart: { width: 5000, animation: true },
        plotOptions: { series: { animation: true } },
        series: [{ name: 'ignored' }],
      },
      colors: ['#123456'],
      backgroundColor: '#00ff00',
    });
    const options = config.options as Record<string, Record<string, unknown>>;
    expect(options.chart).toMatchObject({ type: 'column', width: 300, height: 200, animation: false, backgroundColor: '#00ff00' });
    expect(options.series).toEqual([{ name: 'A', data: [1], animation: false }]);
    expect(options.plotOptions).toEqual({ series: { animation: false } });
    expect(options.colors).toEqual(['#123456']);
    expect(config.background).toBe('#00ff00');
  });

  it('Highcharts dark theme: dark background and labels, also on several axes; user settings still win', () => {
    const config = highchartsConfig({
      chartType: undefined,
      theme: 'dark',
      chartData: null,
      chartOptions: { yAxis: [{ title: { text: 'a' } }, {}], title: { style: { color: '#ff0' } } },
    });
    const options = config.options as Record<string, unknown>;
    expect(config.background).toBe(DARK_BACKGROUND);
    expect(options.chart).toMatchObject({ backgroundColor: DARK_BACKGROUND, type: 'line' });
    expect(options.title).toEqual({ style: { color: '#ff0' } });
    expect((options.yAxis as Array<Record<string, unknown>>)[1]).toMatchObject({ labels: { style: { color: '#e0e0e3' } } });
    expect((options.yAxis as Array<Record<string, unknown>>)[0]).toMatchObject({ title: { text: 'a', style: { color: '#a0a0a3' } } });
  });

  it('responsiveWidth hands the width to the library', () => {
    const hc = highchartsConfig({ responsiveWidth: true });
    expect((hc.options as { chart: { width: unknown } }).chart.width).toBeNull();
    const cj = buildPageConfig(payload({ responsiveWidth: true }));
    expect(cj.options).toMatchObject({ responsive: true });
  });

  it('refuses options that are not an object', () => {
    expect(() => buildPageConfig(payload({ chartOptions: [1, 2] }))).toThrow('Invalid chart options format');
  });
});
