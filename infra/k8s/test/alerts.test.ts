// The PrometheusRule (base/alerts.yaml): every expression reads what the services expose, every alert has a
// runbook section, the no-worker alert follows each group's RENDER_QUEUES, and promtool (Prometheus's own rule
// checker) unit-tests that each alert fires on its symptom and a healthy system raises none.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { kustomizeBuild } from './kustomize.ts';
import { checkQuery, exposedMetrics } from './metrics-catalog.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const repo = join(root, '../..');
// biome-ignore lint/suspicious/noExplicitAny: plain parsed YAML
type Any = any;
const objects = kustomizeBuild(join(root, 'base'));
const rule = objects.find((o) => o.kind === 'PrometheusRule')!;
const rules: Any[] = rule.spec.groups.flatMap((g: Any) => g.rules);
const catalog = await exposedMetrics(repo);
const runbook = readFileSync(join(root, 'RUNBOOK.md'), 'utf8');
const sections = [...runbook.matchAll(/^## (\w+)$/gm)].map((m) => m[1]!);
const workDir = mkdtempSync(join(tmpdir(), 'render-alerts-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/** The list of symptoms that must page, by alert name. */
const REQUIRED = [
  'RenderQueueWaitHigh',
  'RenderApi5xxRateHigh',
  'RenderFailureRateHigh',
  'BrowserRestartsFrequent',
  'CreditsSettleFailing',
  'WebhookDeliveriesFailing',
  'RedisMemoryNearMaxmemory',
  'RenderQueueHasNoReadyWorker',
];

/** promtool check + test on these groups (annotations left out of the unit test: their text is checked below). */
function promtool(groups: Any[]): { status: number | null; output: string } {
  const full = join(workDir, 'full.yaml');
  writeFileSync(full, stringify({ groups }));
  const bare = structuredClone(groups);
  for (const g of bare) for (const r of g.rules) delete r.annotations;
  writeFileSync(join(workDir, 'rules.yaml'), stringify({ groups: bare }));
  writeFileSync(join(workDir, 'tests.yaml'), readFileSync(join(root, 'test/alerts.promtool.yaml')));
  const run = (...args: string[]) => spawnSync('promtool', args, { cwd: workDir, encoding: 'utf8', timeout: 60_000 });
  const check = run('check', 'rules', full);
  if (check.error)
    throw new Error(`promtool not runnable (${check.error.message}): scripts/lib/setup.sh installs Debian's prometheus package`);
  if (check.status !== 0) return { status: check.status, output: check.stdout + check.stderr };
  const test = run('test', 'rules', 'tests.yaml');
  return { status: test.status, output: test.stdout + test.stderr };
}

describe('base/alerts.yaml', () => {
  it('has the alerts the runbook and the issue list, each with severity, for, summary and its runbook section', () => {
    const names = [...new Set(rules.map((r) => r.alert))];
    expect(names.sort()).toEqual([...REQUIRED].sort());
    expect(sections.sort()).toEqual([...REQUIRED].sort());
    for (const r of rules) {
      expect(['warning', 'critical'], r.alert).toContain(r.labels?.severity);
      expect(r.for, r.alert).toMatch(/^\d+m$/);
      expect(r.annotations?.summary, r.alert).toBeTruthy();
      expect(r.annotations?.runbook, r.alert).toBe(`infra/k8s/RUNBOOK.md#${r.alert.toLowerCase()}`);
    }
  });

  it.each(rules.map((r) => [r.alert, r.expr]))('%s reads only exposed metrics and labels', (_alert, expr) => {
    expect(checkQuery(expr, catalog).problems).toEqual([]);
  });

  it('RenderQueueHasNoReadyWorker: one rule per worker group, on exactly that group’s queues', () => {
    const workers = objects.filter(
      (o) => o.kind === 'Deployment' && o.spec.template.metadata.labels['app.kubernetes.io/component'] === 'render-worker',
    );
    const noWorker = rules.filter((r) => r.alert === 'RenderQueueHasNoReadyWorker');
    expect(noWorker.map((r) => r.labels.group).sort()).toEqual(workers.map((d) => d.metadata.name).sort());
    for (const d of workers) {
      const r = noWorker.find((x) => x.labels.group === d.metadata.name);
      const queues = d.spec.template.spec.containers[0].env.find((e: Any) => e.name === 'RENDER_QUEUES').value.split(',');
      const regex = /queue=~"([^"]+)"/.exec(r.expr)?.[1];
      expect(regex?.split('|').sort(), d.metadata.name).toEqual([...queues].sort());
      expect(r.expr).toContain(`namespace="${d.metadata.namespace}", deployment="${d.metadata.name}"`);
    }
  });

  it('promtool: the rules load, and each alert fires on its symptom and not on a healthy system', () => {
    const result = promtool(rule.spec.groups);
    expect(result.output).toContain('SUCCESS');
    expect(result.status, result.output).toBe(0);
  });

  it('promtool fails when an alert would not fire (the unit tests can fail)', () => {
    const groups = structuredClone(rule.spec.groups);
    const wait = groups[0].rules.find((r: Any) => r.alert === 'RenderQueueWaitHigh');
    wait.expr = wait.expr.replace(/> 2$/, '> 10');
    const result = promtool(groups);
    expect(result.status).not.toBe(0);
    expect(result.output).toMatch(/FAILED[\s\S]*RenderQueueWaitHigh/);
  });
});
