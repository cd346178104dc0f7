import { describe, expect, it } from 'vitest';
import { addBuckets, bucketCount, diffBuckets, histogramBuckets, histogramQuantile, parseMetrics } from '../lib/prometheus.ts';

const SCRAPE = `# HELP render_duration_seconds Time a worker spent on one successful render
# TYPE render_duration_seconds histogram
render_duration_seconds_bucket{le="0.01",service="render-worker",format="png",kind="html"} 10
render_duration_seconds_bucket{le="0.1",service="render-worker",format="png",kind="html"} 90
render_duration_seconds_bucket{le="1",service="render-worker",format="png",kind="html"} 100
render_duration_seconds_bucket{le="+Inf",service="render-worker",format="png",kind="html"} 100
render_duration_seconds_sum{service="render-worker",format="png",kind="html"} 5.5
render_duration_seconds_count{service="render-worker",format="png",kind="html"} 100
render_duration_seconds_bucket{le="0.01",service="render-worker",format="jpeg",kind="html"} 0
render_duration_seconds_bucket{le="0.1",service="render-worker",format="jpeg",kind="html"} 0
render_duration_seconds_bucket{le="1",service="render-worker",format="jpeg",kind="html"} 0
render_duration_seconds_bucket{le="+Inf",service="render-worker",format="jpeg",kind="html"} 4
process_cpu_seconds_total{service="render-worker"} 12.5
`;

describe('parseMetrics', () => {
  it('reads names, labels and values, skipping comments', () => {
    const samples = parseMetrics(SCRAPE);
    expect(samples).toHaveLength(11);
    expect(samples[0]).toEqual({
      name: 'render_duration_seconds_bucket',
      labels: { le: '0.01', service: 'render-worker', format: 'png', kind: 'html' },
      value: 10,
    });
    expect(samples.at(-1)).toEqual({ name: 'process_cpu_seconds_total', labels: { service: 'render-worker' }, value: 12.5 });
  });

  it('unescapes label values', () => {
    expect(parseMetrics('m{path="a\\"b"} 1')[0]?.labels.path).toBe('a"b');
  });
});

describe('histogram buckets', () => {
  const samples = parseMetrics(SCRAPE);

  it('sums the series a filter accepts, by upper bound', () => {
    const png = histogramBuckets(samples, 'render_duration_seconds', (l) => l.format === 'png');
    expect([...png.entries()]).toEqual([
      [0.01, 10],
      [0.1, 90],
      [1, 100],
      [Number.POSITIVE_INFINITY, 100],
    ]);
    expect(bucketCount(histogramBuckets(samples, 'render_duration_seconds'))).toBe(104);
  });

  it('adds scrapes and diffs two of them', () => {
    const one = histogramBuckets(samples, 'render_duration_seconds', (l) => l.format === 'png');
    const two = addBuckets(one, one);
    expect(two.get(0.1)).toBe(180);
    expect([...diffBuckets(two, one).values()]).toEqual([10, 90, 100, 100]);
  });
});

describe('histogramQuantile', () => {
  const buckets = new Map([
    [0.01, 10],
    [0.1, 90],
    [1, 100],
    [Number.POSITIVE_INFINITY, 100],
  ]);

  it('interpolates inside the bucket the rank falls into, as PromQL does', () => {
    // rank 50: 40 of the 80 observations in (0.01, 0.1].
    expect(histogramQuantile(0.5, buckets)).toBeCloseTo(0.055, 10);
    // rank 5: half of the first bucket, which starts at 0.
    expect(histogramQuantile(0.05, buckets)).toBeCloseTo(0.005, 10);
    expect(histogramQuantile(0.95, buckets)).toBeCloseTo(0.55, 10);
  });

  it('answers the highest finite bound for a rank in +Inf, NaN without observations', () => {
    expect(
      histogramQuantile(
        0.99,
        new Map([
          [1, 1],
          [Number.POSITIVE_INFINITY, 10],
        ]),
      ),
    ).toBe(1);
    expect(histogramQuantile(0.5, new Map([[Number.POSITIVE_INFINITY, 0]]))).toBeNaN();
  });
});
