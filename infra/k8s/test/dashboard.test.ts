// The Grafana dashboard reads what the services expose: every query's metrics and labels are checked against
// the metric registrations in the code (test/metrics-catalog.ts), and every metric the code registers has a panel.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type Catalog, checkQuery, exposedMetrics, metricsFromCode } from './metrics-catalog.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const repo = join(root, '../..');
// biome-ignore lint/suspicious/noExplicitAny: plain parsed JSON
type Any = any;
const dashboard = JSON.parse(readFileSync(join(root, 'grafana/render-api.json'), 'utf8'));
const queries: { panel: string; expr: string }[] = dashboard.panels.flatMap((p: Any) =>
  (p.targets ?? []).map((t: Any) => ({ panel: p.title as string, expr: t.expr as string })),
);
const catalog: Catalog = await exposedMetrics(repo);
const fromCode = metricsFromCode([join(repo, 'services'), join(repo, 'packages')]);

describe('metrics catalog (read from the code)', () => {
  it('finds the registrations, with their labels, histograms expanded', () => {
    expect(catalog.get('render_queue_waiting')).toEqual(expect.any(Set));
    expect([...catalog.get('render_queue_waiting')!]).toContain('queue');
    expect([...catalog.get('render_queue_waiting')!]).not.toContain('format');
    expect([...catalog.get('render_duration_seconds_bucket')!]).toEqual(expect.arrayContaining(['format', 'kind', 'le', 'service', 'pod']));
    expect(catalog.has('render_duration_seconds')).toBe(false);
    expect([...catalog.get('http_request_duration_seconds_count')!]).toEqual(expect.arrayContaining(['route', 'method', 'status_code']));
    expect(catalog.has('process_resident_memory_bytes')).toBe(true);
    expect([...fromCode.defaultLabels]).toEqual(['service']);
  });

  it('catches a wrong metric, a label the metric lacks, a grouping label none has, and a query that does not parse', () => {
    expect(checkQuery('max by (format) (render_queue_waiting{namespace="x"})', catalog).problems).toEqual([
      'no metric of the query has the label format it groups by',
    ]);
    expect(checkQuery('sum(render_queue_waiting{format="html"})', catalog).problems).toEqual(['render_queue_waiting has no label format']);
    expect(checkQuery('rate(render_jobs_total[$__rate_interval])', catalog).problems).toEqual(['metric render_jobs_total is not exposed']);
    expect(checkQuery('sum by (queue) (render_queue_waiting', catalog).problems).toEqual([expect.stringMatching(/does not parse/)]);
    expect(checkQuery('max by (queue) (render_queue_waiting{namespace="$namespace"})', catalog).problems).toEqual([]);
  });
});

describe('grafana/render-api.json', () => {
  it.each(queries)('$panel: $expr', ({ expr }) => {
    expect(checkQuery(expr, catalog).problems).toEqual([]);
  });

  it('its variables read an exposed metric and label', () => {
    for (const v of dashboard.templating.list.filter((x: Any) => x.type === 'query')) {
      const m = /^label_values\((\w+), (\w+)\)$/.exec(v.query);
      expect(m, v.query).not.toBeNull();
      expect([...(catalog.get(m![1]!) ?? [])], v.query).toContain(m![2]);
    }
  });

  it('has a panel for every metric the services register', () => {
    const read = new Set(queries.flatMap(({ expr }) => checkQuery(expr, catalog).metrics));
    const base = (name: string) => name.replace(/_(bucket|sum|count)$/, '');
    const missing = [...fromCode.catalog.keys()].filter((m) => ![...read].some((r) => base(r) === base(m)));
    expect(missing).toEqual([]);
    const ids = dashboard.panels.map((p: Any) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
