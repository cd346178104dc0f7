import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SyntaxNode } from '@lezer/common';
import { parser } from '@prometheus-io/lezer-promql';
import { collectDefaultMetrics, Registry } from 'prom-client';
import ts from 'typescript';

/**
 * What the services expose, read from their code: every `new Counter|Gauge|Histogram|Summary({ name, labelNames })`
 * under services/ and packages/ (a `name` bound by `for (const [name, …] of [['a', …], …])` counts each 'a'),
 * the registries' default labels (`setDefaultLabels`), prom-client's default metrics (asked of prom-client itself),
 * plus the labels Prometheus adds to every scraped series (the ServiceMonitors' targets).
 */
export type Catalog = Map<string, Set<string>>;

/** Added by Prometheus (kubernetes service discovery through the ServiceMonitors), on every series and on `up`. */
export const TARGET_LABELS = ['job', 'instance', 'namespace', 'pod', 'service', 'container', 'endpoint', 'app_kubernetes_io_name'];

/**
 * Series the alerts read from the standard exporters next to the Prometheus Operator, not from these services:
 * kube-state-metrics and redis_exporter (README "Alerts" says to run them).
 */
export const EXPORTER_METRICS: Record<string, string[]> = {
  kube_deployment_status_replicas_available: ['deployment', 'namespace'],
  redis_memory_used_bytes: ['instance', 'job', 'namespace'],
  redis_memory_max_bytes: ['instance', 'job', 'namespace'],
  redis_up: ['instance', 'job', 'namespace'],
};

const METRIC_CLASSES = new Set(['Counter', 'Gauge', 'Histogram', 'Summary']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'test' || name === 'dist') return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(name) && !/\.(test|d)\.ts$/.test(name) ? [path] : [];
  });
}

const stringsOf = (node: ts.Expression | undefined): string[] => {
  const inner = node && ts.isAsExpression(node) ? node.expression : node;
  if (!inner || !ts.isArrayLiteralExpression(inner)) return [];
  return inner.elements.filter(ts.isStringLiteralLike).map((e) => e.text);
};

/** The values an identifier takes when it is the first element destructured by an enclosing for…of over tuples. */
function loopValues(id: ts.Identifier): string[] {
  for (let node: ts.Node | undefined = id.parent; node; node = node.parent) {
    if (!ts.isForOfStatement(node) || !ts.isVariableDeclarationList(node.initializer)) continue;
    const binding = node.initializer.declarations[0]?.name;
    if (!binding || !ts.isArrayBindingPattern(binding)) continue;
    const first = binding.elements[0];
    if (!first || !ts.isBindingElement(first) || !ts.isIdentifier(first.name) || first.name.text !== id.text) continue;
    const list = ts.isAsExpression(node.expression) ? node.expression.expression : node.expression;
    if (!ts.isArrayLiteralExpression(list)) return [];
    return list.elements.flatMap((tuple) =>
      ts.isArrayLiteralExpression(tuple) && tuple.elements[0] && ts.isStringLiteralLike(tuple.elements[0]) ? [tuple.elements[0].text] : [],
    );
  }
  return [];
}

function add(catalog: Catalog, type: string, name: string, labels: string[]): void {
  const names =
    type === 'Histogram'
      ? [`${name}_bucket`, `${name}_sum`, `${name}_count`]
      : type === 'Summary'
        ? [name, `${name}_sum`, `${name}_count`]
        : [name];
  for (const n of names) {
    const set = catalog.get(n) ?? new Set<string>();
    for (const l of labels) set.add(l);
    if (n.endsWith('_bucket')) set.add('le');
    if (type === 'Summary' && n === name) set.add('quantile');
    catalog.set(n, set);
  }
}

/** The metrics registered in the code under `roots` (each a services/ or packages/ folder). */
export function metricsFromCode(roots: string[]): { catalog: Catalog; defaultLabels: Set<string> } {
  const catalog: Catalog = new Map();
  const defaultLabels = new Set<string>();
  for (const file of roots.flatMap(sourceFiles)) {
    const text = readFileSync(file, 'utf8');
    if (!/prom-client|@render\/fastify-kit/.test(text)) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && METRIC_CLASSES.has(node.expression.text)) {
        const [arg] = node.arguments ?? [];
        if (arg && ts.isObjectLiteralExpression(arg)) {
          const prop = (key: string) =>
            arg.properties.find(
              (p): p is ts.PropertyAssignment | ts.ShorthandPropertyAssignment =>
                (ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) && p.name.getText(source) === key,
            );
          const nameProp = prop('name');
          const nameNode = nameProp && ts.isPropertyAssignment(nameProp) ? nameProp.initializer : nameProp?.name;
          const labelsProp = prop('labelNames');
          const labels = labelsProp && ts.isPropertyAssignment(labelsProp) ? stringsOf(labelsProp.initializer) : [];
          const names =
            nameNode && ts.isStringLiteralLike(nameNode)
              ? [nameNode.text]
              : nameNode && ts.isIdentifier(nameNode)
                ? loopValues(nameNode)
                : [];
          if (names.length === 0) throw new Error(`${file}: a ${node.expression.text} whose name this catalog cannot read`);
          for (const name of names) add(catalog, node.expression.text, name, labels);
        }
      }
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'setDefaultLabels') {
        const [arg] = node.arguments;
        if (arg && ts.isObjectLiteralExpression(arg)) for (const p of arg.properties) if (p.name) defaultLabels.add(p.name.getText(source));
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { catalog, defaultLabels };
}

/** prom-client's `collectDefaultMetrics`, as the version the services use reports them. */
export async function defaultMetrics(): Promise<Catalog> {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const catalog: Catalog = new Map();
  for (const m of await registry.getMetricsAsJSON()) {
    const labels = new Set<string>(m.values.flatMap((v) => Object.keys(v.labels ?? {})));
    const type = String(m.type);
    add(
      catalog,
      type === 'histogram' ? 'Histogram' : type === 'summary' ? 'Summary' : 'Counter',
      m.name,
      [...labels].filter((l) => l !== 'le'),
    );
  }
  return catalog;
}

/** Everything a query may name: the services' metrics with their labels, default and target labels, `up`, the exporters'. */
export async function exposedMetrics(repo: string): Promise<Catalog> {
  const { catalog, defaultLabels } = metricsFromCode([join(repo, 'services'), join(repo, 'packages')]);
  for (const [name, labels] of await defaultMetrics()) catalog.set(name, new Set([...(catalog.get(name) ?? []), ...labels]));
  for (const labels of catalog.values()) for (const l of [...defaultLabels, ...TARGET_LABELS]) labels.add(l);
  catalog.set('up', new Set(TARGET_LABELS));
  for (const [name, labels] of Object.entries(EXPORTER_METRICS)) catalog.set(name, new Set(labels));
  return catalog;
}

/** Grafana's variables in range position are not PromQL: give them a duration so the query parses. */
const GRAFANA_RANGES = /\$__(rate_interval|interval|range)/g;

/**
 * Each metric a PromQL expression reads and each label it names that the metrics it reads do not carry, or a
 * parse error. Labels in a selector are checked against that selector's metric; grouping labels (by, without,
 * on, ignoring) against every metric of the expression.
 */
export function checkQuery(expr: string, catalog: Catalog): { metrics: string[]; problems: string[] } {
  const text = expr.replace(GRAFANA_RANGES, '5m');
  const tree = parser.parse(text);
  const problems: string[] = [];
  const metrics: string[] = [];
  const grouping: string[] = [];
  const slice = (n: SyntaxNode) => text.slice(n.from, n.to);
  tree.iterate({
    enter(ref) {
      if (ref.type.isError) problems.push(`does not parse at ${ref.from}: ${JSON.stringify(text.slice(ref.from, ref.from + 20))}`);
      if (ref.name === 'VectorSelector') {
        const id = ref.node.getChild('Identifier');
        if (!id) return;
        const metric = slice(id);
        metrics.push(metric);
        const labels = catalog.get(metric);
        if (!labels) problems.push(`metric ${metric} is not exposed`);
        for (const name of ref.node.getChild('LabelMatchers')?.getChildren('UnquotedLabelMatcher') ?? []) {
          const label = name.getChild('LabelName');
          if (label && labels && !labels.has(slice(label))) problems.push(`${metric} has no label ${slice(label)}`);
        }
      }
      if (ref.name === 'GroupingLabels') for (const l of ref.node.getChildren('LabelName')) grouping.push(slice(l));
    },
  });
  for (const label of grouping)
    if (!metrics.some((m) => catalog.get(m)?.has(label))) problems.push(`no metric of the query has the label ${label} it groups by`);
  if (metrics.length === 0 && problems.length === 0) problems.push('reads no metric');
  return { metrics, problems };
}
