import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ScaledObject, TriggerAuthentication } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import { PrometheusRule, ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job } from 'kubernetes-models/batch/v1';
import { Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { Namespace, Secret, Service } from 'kubernetes-models/v1';
import { describe, expect, it } from 'vitest';
import { type K8sObject, kustomizeBuild, parseYamlFile } from './kustomize.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const repo = join(root, '../..');

// Ground truth read from the code the manifests deploy, so a change there fails here.
const queueNames = [...readFileSync(join(repo, 'packages/queue/src/render-jobs.ts'), 'utf8').matchAll(/defineRenderJob\('(\w+)'/g)].map(
  (m) => m[1]!,
);
const workerConfig = readFileSync(join(repo, 'services/render-worker/src/config.ts'), 'utf8');
const configDefault = (name: string) => {
  const m = workerConfig.match(new RegExp(`${name}: Type\\.\\w+\\(\\{[^}]*default: '?([\\w_]+)'?`));
  if (!m) throw new Error(`no default for ${name} in the worker config`);
  return m[1]!.replaceAll('_', '');
};
const gatewayConfig = readFileSync(join(repo, 'services/gateway/src/config.ts'), 'utf8');
/** The gateway's body limit (BODY_LIMIT_BYTES's default, e.g. `5 * 1024 * 1024`). */
const gatewayBodyLimit = (() => {
  const m = /BODY_LIMIT_BYTES: Type\.Integer\(\{[^}]*default: ([\d\s*_]+)\s*\}/.exec(gatewayConfig);
  if (!m) throw new Error('no BODY_LIMIT_BYTES default in the gateway config');
  return m[1]!.split('*').reduce((n, f) => n * Number(f.trim().replaceAll('_', '')), 1);
})();
/** nginx sizes: 6m, 512k, 1g, or bytes. */
const nginxBytes = (size: string) => {
  const m = /^(\d+)([kmg]?)$/i.exec(size.trim());
  if (!m) return Number.NaN;
  return Number(m[1]) * 1024 ** ['', 'k', 'm', 'g'].indexOf(m[2]!.toLowerCase());
};
/** The bound fastify-kit puts on each readiness check (runHealthChecks' timeoutMs default). */
const healthCheckBoundMs = (() => {
  const m = /runHealthChecks\([^)]*timeoutMs = ([\d_]+)\)/.exec(
    readFileSync(join(repo, 'packages/fastify-kit/src/health.plugin.ts'), 'utf8'),
  );
  if (!m) throw new Error('no timeoutMs default in fastify-kit runHealthChecks');
  return Number(m[1]!.replaceAll('_', ''));
})();
/** How the pods build REDIS_URL from the secret's parts (the ones KEDA reads): the same everywhere. */
const REDIS_URL_FROM_PARTS = 'redis://:$(REDIS_PASSWORD)@$(REDIS_ADDRESS)';
const defaultPrefix = configDefault('QUEUE_PREFIX');
const defaultDrainMs = Number(configDefault('SHUTDOWN_TIMEOUT_MS'));
/** Seconds the pod keeps after the drain deadline for closing pools, Chromium and Redis. */
const TEARDOWN_MARGIN_S = 10;
const SECRET_NAME = 'render-api-secrets';
const secretKeys = new Set(Object.keys((parseYamlFile(join(root, 'base/secrets.template.yaml'))[0]!.stringData as object) ?? {}));

type Model = new (data: never) => { validate(): void };
const MODELS: Record<string, Model> = {
  'v1/Namespace': Namespace,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'batch/v1/Job': Job,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'networking.k8s.io/v1/Ingress': Ingress,
  'keda.sh/v1alpha1/ScaledObject': ScaledObject,
  'keda.sh/v1alpha1/TriggerAuthentication': TriggerAuthentication,
  'monitoring.coreos.com/v1/ServiceMonitor': ServiceMonitor,
  'monitoring.coreos.com/v1/PrometheusRule': PrometheusRule,
};

function validate(o: K8sObject): void {
  const Model = MODELS[`${o.apiVersion}/${o.kind}`];
  if (!Model) throw new Error(`no model for ${o.apiVersion}/${o.kind} (${o.metadata?.name})`);
  new Model(o as never).validate();
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}

// biome-ignore lint/suspicious/noExplicitAny: plain parsed YAML
type Any = any;
const containersOf = (d: K8sObject): Any[] => d.spec.template.spec.containers ?? [];
const initContainersOf = (d: K8sObject): Any[] => d.spec.template.spec.initContainers ?? [];
/** The services that need the schema before they start: each runs the migrate CLI as an init container. */
const NEEDS_SCHEMA = ['auth', 'templates'];
const envValue = (c: Any, name: string): string | undefined => (c.env ?? []).find((e: Any) => e.name === name)?.value;
const isWorker = (d: K8sObject) => d.spec.template.metadata.labels['app.kubernetes.io/component'] === 'render-worker';
const selects = (selector: Record<string, string> | undefined, labels: Record<string, string>) =>
  !!selector && Object.entries(selector).every(([k, v]) => labels[k] === v);
const targets = (o: K8sObject, d: K8sObject) =>
  o.spec.scaleTargetRef?.name === d.metadata.name && (o.spec.scaleTargetRef.kind ?? 'Deployment') === 'Deployment';

function ipToInt(ip: string): number {
  return ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}
function cidrContains(cidr: string, ip: string): boolean {
  const [base, bits] = cidr.split('/') as [string, string];
  const size = 2 ** (32 - Number(bits));
  const start = Math.floor(ipToInt(base) / size) * size;
  return ipToInt(ip) >= start && ipToInt(ip) < start + size;
}
/** Does this egress rule let the pod open a connection to ip (on any of its ports)? */
function ruleAllows(rule: Any, ip: string): boolean {
  if (!rule.to || rule.to.length === 0) return true;
  return rule.to.some(
    (peer: Any) =>
      peer.ipBlock && cidrContains(peer.ipBlock.cidr, ip) && !(peer.ipBlock.except ?? []).some((e: string) => cidrContains(e, ip)),
  );
}
const PRIVATE_PROBES = ['10.0.0.1', '10.255.255.254', '172.16.0.1', '172.31.255.254', '192.168.0.1', '169.254.169.254', '100.64.0.1'];
const REQUIRED_EXCEPT = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16', '100.64.0.0/10'];

const MONITORING_NS = 'monitoring';
const fromMonitoring = (peer: Any) =>
  peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === MONITORING_NS && !peer.podSelector && !peer.ipBlock;

/**
 * Scraping: each Deployment's pods are reached by a ServiceMonitor, through a Service that selects them, on a
 * named container port that the pods' NetworkPolicies open to the monitoring namespace, and that is not the
 * port open to everyone (the gateway's public port needs a header that a scrape cannot send).
 */
function metricsProblems(objects: K8sObject[]): string[] {
  const out: string[] = [];
  const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
  for (const d of objects.filter((o) => o.kind === 'Deployment')) {
    const name = `Deployment/${d.metadata.name}`;
    const labels = d.spec.template.metadata.labels;
    const services = objects.filter((o) => o.kind === 'Service' && selects(o.spec.selector, labels));
    const scraped = objects
      .filter((o) => o.kind === 'ServiceMonitor')
      .flatMap((sm) =>
        services
          .filter((svc) => selects(sm.spec.selector?.matchLabels, svc.metadata.labels ?? {}))
          .flatMap((svc) => (sm.spec.endpoints ?? []).map((e: Any) => svc.spec.ports.find((p: Any) => p.name === e.port))),
      );
    if (scraped.length === 0) out.push(`${name}: no ServiceMonitor scrapes it`);
    const ingress: Any[] = policies
      .filter((p) => selects(p.spec.podSelector.matchLabels, labels) && p.spec.policyTypes?.includes('Ingress'))
      .flatMap((p) => p.spec.ingress ?? []);
    for (const servicePort of scraped) {
      if (!servicePort) {
        out.push(`${name}: a ServiceMonitor names a port its Service does not have`);
        continue;
      }
      const port = containersOf(d)[0].ports?.find(
        (p: Any) => p.name === servicePort.targetPort || p.containerPort === servicePort.targetPort,
      );
      if (!port) {
        out.push(`${name}: Service port ${servicePort.name} targets no container port`);
        continue;
      }
      const opens = (r: Any) => (r.ports ?? []).some((p: Any) => p.port === port.containerPort);
      if (!ingress.some((r) => opens(r) && (r.from ?? []).some(fromMonitoring)))
        out.push(`${name}: no NetworkPolicy admits the ${MONITORING_NS} namespace on metrics port ${port.containerPort}`);
      if (d.metadata.name === 'gateway' && ingress.some((r) => opens(r) && !r.from))
        out.push(`${name}: metrics port ${port.containerPort} is open to everyone`);
    }
  }
  return out;
}

/**
 * One pod template's problems: non-root, seccomp, per container requests and limits, no privilege escalation,
 * read-only root, no capabilities, /tmp on an emptyDir, secret keys from the template; for the services
 * (`service`) also the /health probes, with a readiness timeout above the checks' own bound.
 */
function podProblems(name: string, template: Any, service: boolean): string[] {
  const out: string[] = [];
  const pod = template.spec;
  const containers: Any[] = pod.containers ?? [];
  const inits: Any[] = pod.initContainers ?? [];
  if (pod.securityContext?.runAsNonRoot !== true) out.push(`${name}: pod not runAsNonRoot`);
  if (!(pod.securityContext?.runAsUser > 0)) out.push(`${name}: runAsUser must be a non-zero uid`);
  if (pod.securityContext?.seccompProfile?.type !== 'RuntimeDefault') out.push(`${name}: seccomp not RuntimeDefault`);
  for (const c of [...containers, ...inits]) {
    const cn = `${name}/${c.name}`;
    const init = inits.includes(c);
    if (service && !init && c.readinessProbe?.httpGet?.path !== '/health/ready') out.push(`${cn}: readiness probe not /health/ready`);
    if (service && !init && c.livenessProbe?.httpGet?.path !== '/health/live') out.push(`${cn}: liveness probe not /health/live`);
    if (service && !init && !((c.readinessProbe?.timeoutSeconds ?? 1) * 1000 > healthCheckBoundMs))
      out.push(`${cn}: readiness probe timeout not above the health checks' ${healthCheckBoundMs} ms bound`);
    const env = (c.env ?? []) as Any[];
    const redisUrl = env.find((e) => e.name === 'REDIS_URL');
    if (redisUrl) {
      if (redisUrl.value !== REDIS_URL_FROM_PARTS) out.push(`${cn}: REDIS_URL not built from the secret's REDIS_ADDRESS/REDIS_PASSWORD`);
      const before = env.slice(0, env.indexOf(redisUrl)).map((e) => e.name);
      for (const part of ['REDIS_ADDRESS', 'REDIS_PASSWORD', 'REDIS_TLS'])
        if (!before.includes(part)) out.push(`${cn}: ${part} not set before REDIS_URL`);
    }
    for (const kind of ['requests', 'limits'])
      for (const res of ['cpu', 'memory']) if (!c.resources?.[kind]?.[res]) out.push(`${cn}: no ${res} ${kind}`);
    const sc = c.securityContext ?? {};
    if (sc.allowPrivilegeEscalation !== false) out.push(`${cn}: allowPrivilegeEscalation not false`);
    if (sc.readOnlyRootFilesystem !== true) out.push(`${cn}: root filesystem not read-only`);
    if (!(sc.capabilities?.drop ?? []).includes('ALL')) out.push(`${cn}: capabilities not dropped`);
    if (sc.runAsUser === 0 || sc.runAsNonRoot === false) out.push(`${cn}: runs as root`);
    const tmp = (c.volumeMounts ?? []).find((m: Any) => m.mountPath === '/tmp');
    if (!tmp || !(pod.volumes ?? []).some((v: Any) => v.name === tmp.name && v.emptyDir)) out.push(`${cn}: /tmp is not an emptyDir`);
  }
  for (const c of [...containers, ...inits]) {
    for (const e of c.env ?? []) {
      const ref = e.valueFrom?.secretKeyRef;
      if (ref && (ref.name !== SECRET_NAME || !secretKeys.has(ref.key)))
        out.push(`${name}: secret ${ref.name}/${ref.key} not in the template`);
    }
    for (const e of c.envFrom ?? []) if (e.secretRef) out.push(`${name}: envFrom secretRef (name keys explicitly)`);
  }

  return out;
}

/** The datastores the app reaches, by the secret key a client reads and the port it connects to. */
const DATASTORES = [
  { name: 'redis', key: 'REDIS_ADDRESS', port: 6379, alsoFrom: 'keda' },
  { name: 'postgres', key: 'DATABASE_URL', port: 5432, alsoFrom: undefined },
] as const;

/**
 * Redis and Postgres are reachable by exactly their clients (the pods whose env reads their secret key, the
 * migration Jobs included): in the cluster (a StatefulSet of that name), each client's egress selects the
 * datastore's pods and the datastore's policy admits each client (and Redis admits KEDA's namespace);
 * managed, each client's egress on that port goes to an address range.
 */
function datastoreProblems(objects: K8sObject[]): string[] {
  const out: string[] = [];
  const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
  const pods = objects.filter((o) => o.spec?.template?.spec);
  for (const store of DATASTORES) {
    const server = objects.find((o) => o.kind === 'StatefulSet' && o.metadata.name === store.name);
    const serverLabels = server?.spec.template.metadata.labels;
    const clients = pods.filter((o) =>
      [...containersOf(o), ...initContainersOf(o)].some((c) =>
        (c.env ?? []).some((e: Any) => e.valueFrom?.secretKeyRef?.key === store.key),
      ),
    );
    if (clients.length === 0) out.push(`${store.name}: no client found`);
    const serverIngress: Any[] = server
      ? policies.filter((p) => selects(p.spec.podSelector.matchLabels, serverLabels)).flatMap((p) => p.spec.ingress ?? [])
      : [];
    const onPort = (r: Any) => (r.ports ?? []).some((p: Any) => p.port === store.port);
    for (const o of clients) {
      const labels = o.spec.template.metadata.labels;
      const name = `${o.kind}/${o.metadata.name}`;
      const peers: Any[] = policies
        .filter((p) => selects(p.spec.podSelector.matchLabels, labels) && p.spec.policyTypes?.includes('Egress'))
        .flatMap((p) => p.spec.egress ?? [])
        .filter(onPort)
        .flatMap((r) => r.to ?? []);
      if (server) {
        if (!peers.some((peer) => !peer.namespaceSelector && selects(peer.podSelector?.matchLabels, serverLabels)))
          out.push(`${name}: no egress to the in-cluster ${store.name} pods on ${store.port}`);
        const admits = (r: Any) =>
          onPort(r) && (r.from ?? []).some((peer: Any) => !peer.namespaceSelector && selects(peer.podSelector?.matchLabels, labels));
        if (!serverIngress.some(admits)) out.push(`${store.name}: its NetworkPolicy does not admit ${name}`);
      } else if (!peers.some((peer) => peer.ipBlock))
        out.push(`${name}: no egress to the managed ${store.name}'s address range on ${store.port}`);
    }
    if (server && store.alsoFrom) {
      const ns = store.alsoFrom;
      const admits = (r: Any) =>
        onPort(r) && (r.from ?? []).some((peer: Any) => peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === ns);
      if (!serverIngress.some(admits)) out.push(`${store.name}: its NetworkPolicy does not admit the ${ns} namespace`);
    }
  }
  return out;
}

/** The migration Jobs of an overlay: valid, restricted pods, the overlay's own node image, the migrator's commands. */
function jobProblems(jobObjects: K8sObject[], overlay: K8sObject[], command: string): string[] {
  const out: string[] = [];
  const overlayImage = overlay.find((o) => o.kind === 'Deployment' && o.metadata.name === 'templates')!.spec.template.spec.containers[0]
    .image;
  const policies = overlay.filter((o) => o.kind === 'NetworkPolicy');
  for (const job of jobObjects) {
    const name = `${job.kind}/${job.metadata.name}`;
    try {
      validate(job);
    } catch (err) {
      out.push(`${name}: ${(err as Error).message}`);
    }
    if (job.kind !== 'Job') continue;
    if (job.metadata.namespace !== 'render-api') out.push(`${name}: namespace ${job.metadata.namespace}`);
    out.push(...podProblems(name, job.spec.template, false));
    const all = [...containersOf(job), ...initContainersOf(job)];
    for (const c of all) if (c.image !== overlayImage) out.push(`${name}/${c.name}: image ${c.image}, not the overlay's ${overlayImage}`);
    if (!all.some((c) => (c.command ?? []).join(' ') === command)) out.push(`${name}: no container runs ${command}`);
    if (job.spec.template.spec.restartPolicy !== 'Never') out.push(`${name}: restartPolicy not Never`);
    if (!policies.some((p) => selects(p.spec.podSelector.matchLabels, job.spec.template.metadata.labels)))
      out.push(`${name}: no NetworkPolicy of the overlay selects its pods`);
  }
  return out;
}

/** The public entry: TLS for every host, to the gateway's http port, and a body limit the gateway's fits under. */
function ingressProblems(objects: K8sObject[]): string[] {
  const out: string[] = [];
  const ingresses = objects.filter((o) => o.kind === 'Ingress');
  if (ingresses.length !== 1) out.push(`${ingresses.length} Ingresses (want 1)`);
  for (const ing of ingresses) {
    const name = `Ingress/${ing.metadata.name}`;
    const tlsHosts = new Set((ing.spec.tls ?? []).flatMap((t: Any) => (t.secretName ? t.hosts : [])));
    for (const r of ing.spec.rules ?? []) {
      if (!r.host || !tlsHosts.has(r.host)) out.push(`${name}: host ${r.host} has no TLS`);
      for (const p of r.http?.paths ?? [])
        if (p.backend.service?.name !== 'gateway' || p.backend.service.port?.name !== 'http')
          out.push(`${name}: ${p.path} is not routed to gateway:http`);
    }
    if (!ing.spec.ingressClassName) out.push(`${name}: no ingressClassName`);
    const annotations = (ing.metadata as Any).annotations ?? {};
    const body = nginxBytes(annotations['nginx.ingress.kubernetes.io/proxy-body-size'] ?? '1m');
    if (!(body >= gatewayBodyLimit)) out.push(`${name}: proxy-body-size below the gateway's ${gatewayBodyLimit}-byte body limit`);
    if (annotations['nginx.ingress.kubernetes.io/ssl-redirect'] !== 'true') out.push(`${name}: plain HTTP not redirected to TLS`);
  }
  return out;
}

/** Every problem with one rendered set of objects (base or an overlay); empty when all is well. */
function problems(objects: K8sObject[]): string[] {
  const out: string[] = [];
  const byKind = (kind: string) => objects.filter((o) => o.kind === kind);
  const deployments = byKind('Deployment');
  const policies = byKind('NetworkPolicy');
  const served = new Set<string>();

  for (const o of objects) {
    try {
      validate(o);
    } catch (err) {
      out.push(`${o.kind}/${o.metadata?.name}: ${(err as Error).message}`);
    }
  }

  for (const st of byKind('StatefulSet')) {
    const name = `StatefulSet/${st.metadata.name}`;
    out.push(...podProblems(name, st.spec.template, false));
    for (const c of containersOf(st))
      if (!((c.readinessProbe?.timeoutSeconds ?? 0) >= 1)) out.push(`${name}/${c.name}: no readiness probe with a timeout`);
    if (!byKind('NetworkPolicy').some((p) => selects(p.spec.podSelector.matchLabels, st.spec.template.metadata.labels)))
      out.push(`${name}: no NetworkPolicy selects it`);
  }

  for (const d of deployments) {
    const name = `Deployment/${d.metadata.name}`;
    const labels = d.spec.template.metadata.labels;
    if (!selects(d.spec.selector.matchLabels, labels)) out.push(`${name}: selector does not match its pod labels`);
    out.push(...podProblems(name, d.spec.template, true));
    const pdbs = byKind('PodDisruptionBudget').filter((p) => selects(p.spec.selector?.matchLabels, labels));
    if (pdbs.length !== 1) out.push(`${name}: ${pdbs.length} PodDisruptionBudgets select it (want 1)`);
    const scalers = objects.filter((o) => (o.kind === 'HorizontalPodAutoscaler' || o.kind === 'ScaledObject') && targets(o, d));
    if (scalers.length !== 1) out.push(`${name}: ${scalers.length} autoscalers target it (want 1)`);
    if (d.spec.replicas !== undefined) out.push(`${name}: sets replicas, which fights its autoscaler`);
    if (!policies.some((p) => selects(p.spec.podSelector.matchLabels, labels))) out.push(`${name}: no NetworkPolicy selects it`);
    if (NEEDS_SCHEMA.includes(d.metadata.name)) {
      const migrate = initContainersOf(d).find((c) => (c.command ?? []).join(' ') === 'node dist/migrate.cli.js');
      if (!migrate) out.push(`${name}: no init container runs the migrations (node dist/migrate.cli.js)`);
      else if (migrate.image !== containersOf(d)[0]?.image) out.push(`${name}: migrations run from another image than the service`);
    }
    if (!isWorker(d)) continue;
    const [worker] = containersOf(d);
    const queues = (envValue(worker, 'RENDER_QUEUES') ?? '').split(',').filter(Boolean);
    const prefix = envValue(worker, 'QUEUE_PREFIX') ?? defaultPrefix;
    const drainMs = Number(envValue(worker, 'SHUTDOWN_TIMEOUT_MS') ?? defaultDrainMs);
    if (queues.length === 0) out.push(`${name}: RENDER_QUEUES not set (it would serve every queue)`);
    for (const q of queues) {
      if (!queueNames.includes(q)) out.push(`${name}: unknown queue ${q}`);
      if (served.has(q)) out.push(`${name}: queue ${q} is served by two groups`);
      served.add(q);
    }
    const grace = d.spec.template.spec.terminationGracePeriodSeconds;
    if (!(grace >= drainMs / 1000 + TEARDOWN_MARGIN_S))
      out.push(`${name}: terminationGracePeriodSeconds ${grace} not above the ${drainMs} ms drain deadline + ${TEARDOWN_MARGIN_S} s`);
    const so = byKind('ScaledObject').find((o) => targets(o, d));
    if (!so) out.push(`${name}: no ScaledObject`);
    else {
      const triggers: Any[] = so.spec.triggers;
      for (const q of queues) {
        if (!triggers.some((t) => t.type === 'redis' && t.metadata.listName === `${prefix}:${q}:wait`))
          out.push(`${name}: ScaledObject has no redis trigger on ${prefix}:${q}:wait`);
      }
      for (const t of triggers) {
        const m = /^([^:]+):([^:]+):(wait|active)$/.exec(t.metadata.listName ?? '');
        if (!m || m[1] !== prefix || !queues.includes(m[2]!))
          out.push(`${name}: trigger on ${t.metadata.listName} is not one of its queues`);
        const auth = byKind('TriggerAuthentication').find((a) => a.metadata.name === t.authenticationRef?.name);
        if (!auth) out.push(`${name}: trigger ${t.name} has no TriggerAuthentication`);
      }
      const formula: string | undefined = so.spec.advanced?.scalingModifiers?.formula;
      for (const id of formula?.match(/[A-Za-z_]\w*/g) ?? [])
        if (!triggers.some((t) => t.name === id)) out.push(`${name}: formula names unknown trigger ${id}`);
      if (!(so.spec.maxReplicaCount >= Math.max(1, so.spec.minReplicaCount ?? 0))) out.push(`${name}: bad min/max replicas`);
    }

    // Egress of the worker pods: everything any policy selecting them allows.
    const egress: Any[] = policies
      .filter((p) => selects(p.spec.podSelector.matchLabels, labels) && p.spec.policyTypes?.includes('Egress'))
      .flatMap((p) => p.spec.egress ?? []);
    for (const rule of egress) {
      const ports: number[] = (rule.ports ?? []).map((p: Any) => p.port);
      if (ports.length === 0) out.push(`${name}: an egress rule allows every port`);
      if (ruleAllows(rule, '169.254.169.254')) out.push(`${name}: egress reaches the cloud metadata address`);
      for (const peer of rule.to ?? []) {
        if (peer.ipBlock?.cidr === '0.0.0.0/0') {
          for (const range of REQUIRED_EXCEPT)
            if (!(peer.ipBlock.except ?? []).includes(range)) out.push(`${name}: 0.0.0.0/0 egress does not except ${range}`);
          if (ports.some((p) => p !== 80 && p !== 443)) out.push(`${name}: public egress on ports other than 80/443`);
        }
      }
      // The 80/443 rule must not open any private address; narrower rules (Redis's CIDR, DNS) are checked by port.
      if (ports.some((p) => p === 80 || p === 443))
        for (const ip of PRIVATE_PROBES) if (ruleAllows(rule, ip)) out.push(`${name}: web egress reaches ${ip}`);
      // The account service (webhook secrets for signing deliveries): its own pods only, on its port.
      const toAuthOnly =
        (rule.to ?? []).length > 0 &&
        (rule.to as Any[]).every(
          (peer) => peer.podSelector?.matchLabels?.['app.kubernetes.io/name'] === 'auth' && !peer.ipBlock && !peer.namespaceSelector,
        );
      const allowed = toAuthOnly ? [3001] : [80, 443, 53, 6379];
      if (ports.some((p) => !allowed.includes(p))) out.push(`${name}: egress on unexpected ports ${ports}`);
    }
  }
  if (deployments.some(isWorker)) for (const q of queueNames) if (!served.has(q)) out.push(`no render-worker group serves the ${q} queue`);

  if (
    !policies.some(
      (p) => Object.keys(p.spec.podSelector).length === 0 && p.spec.policyTypes?.length === 2 && !p.spec.ingress && !p.spec.egress,
    )
  )
    out.push('no default-deny NetworkPolicy');
  for (const so of byKind('ScaledObject'))
    for (const t of so.spec.triggers ?? [])
      if (t.metadata?.enableTLS !== undefined)
        out.push(`ScaledObject/${so.metadata.name}: trigger ${t.name} sets enableTLS (REDIS_TLS sets it)`);
  for (const a of byKind('TriggerAuthentication')) {
    const params = Object.fromEntries((a.spec.secretTargetRef ?? []).map((r: Any) => [r.parameter, r.key]));
    if (params.address !== 'REDIS_ADDRESS' || params.password !== 'REDIS_PASSWORD' || params.tls !== 'REDIS_TLS')
      out.push(`TriggerAuthentication/${a.metadata.name}: not address/password/tls from REDIS_ADDRESS/REDIS_PASSWORD/REDIS_TLS`);
  }
  for (const a of byKind('TriggerAuthentication'))
    for (const ref of a.spec.secretTargetRef ?? [])
      if (ref.name !== SECRET_NAME || !secretKeys.has(ref.key)) out.push(`TriggerAuthentication/${a.metadata.name}: secret key ${ref.key}`);
  for (const name of ['auth', 'templates']) {
    const p = policies.find((x) => x.metadata.name === name);
    if (!p?.spec.egress?.some((r: Any) => r.ports?.some((port: Any) => port.port === 5432))) out.push(`${name}: no egress to Postgres`);
  }
  // Webhooks are delivered by the render workers: the gateway must refuse the ports their policy cannot reach.
  const gateway = deployments.find((d) => d.metadata.name === 'gateway');
  const workerPolicy = policies.find((x) => x.metadata.name === 'render-worker');
  if (gateway && workerPolicy) {
    const webhookPorts = (envValue(containersOf(gateway)[0], 'WEBHOOK_PORTS') ?? '').split(',').filter(Boolean).map(Number);
    if (webhookPorts.length === 0) out.push('gateway: WEBHOOK_PORTS not set, though the workers reach the internet on a few ports only');
    const publicPorts: number[] = (workerPolicy.spec.egress ?? [])
      .filter((r: Any) => (r.to ?? []).some((peer: Any) => peer.ipBlock?.cidr === '0.0.0.0/0'))
      .flatMap((r: Any) => (r.ports ?? []).map((p: Any) => p.port));
    for (const port of webhookPorts)
      if (!publicPorts.includes(port)) out.push(`gateway: WEBHOOK_PORTS allows ${port}, which the workers cannot reach`);
  }
  const gw = policies.find((x) => x.metadata.name === 'gateway');
  for (const [target, port] of [
    ['auth', 3001],
    ['templates', 3002],
  ] as const)
    if (
      !gw?.spec.egress?.some(
        (r: Any) =>
          r.to?.some((t: Any) => t.podSelector?.matchLabels?.['app.kubernetes.io/name'] === target) &&
          r.ports?.some((x: Any) => x.port === port),
      )
    )
      out.push(`gateway: no egress to ${target}`);
  return [...out, ...metricsProblems(objects), ...ingressProblems(objects)];
}

const builds = {
  base: kustomizeBuild(join(root, 'base')),
  'overlays/production': kustomizeBuild(join(root, 'overlays/production')),
  'overlays/small': kustomizeBuild(join(root, 'overlays/small')),
};
/** Each overlay's migration Jobs, applied on their own (kubectl apply -k overlays/<overlay>/migrate | rollback). */
const jobs = {
  production: [...kustomizeBuild(join(root, 'overlays/production/migrate')), ...kustomizeBuild(join(root, 'overlays/production/rollback'))],
  small: [...kustomizeBuild(join(root, 'overlays/small/migrate')), ...kustomizeBuild(join(root, 'overlays/small/rollback'))],
};
const find = (objects: K8sObject[], kind: string, name: string) => {
  const o = objects.find((x) => x.kind === kind && x.metadata.name === name);
  if (!o) throw new Error(`${kind}/${name} missing`);
  return o;
};

describe('infra/k8s manifests', () => {
  it('reads the queue names, prefix and drain deadline from the code', () => {
    expect(queueNames).toEqual(['html', 'svg', 'chart', 'code', 'screenshot']);
    expect(defaultPrefix).toBe('render');
    expect(defaultDrainMs).toBeGreaterThan(0);
  });

  it('parses every YAML file under base/ and overlays/ and validates each object against its schema', () => {
    const files = [...yamlFiles(join(root, 'base')), ...yamlFiles(join(root, 'overlays'))];
    let count = 0;
    for (const file of files) {
      const objects = parseYamlFile(file);
      expect(objects.length, relative(root, file)).toBeGreaterThan(0);
      if (file.endsWith('kustomization.yaml')) continue;
      for (const o of objects) {
        validate(o);
        count += 1;
      }
    }
    expect(count).toBeGreaterThan(20);
    // Every base manifest is deployed, except the Secret template.
    const listed = parseYamlFile(join(root, 'base/kustomization.yaml'))[0]!.resources as string[];
    const unlisted = readdirSync(join(root, 'base')).filter(
      (f) => f.endsWith('.yaml') && f !== 'kustomization.yaml' && !listed.includes(f),
    );
    expect(unlisted).toEqual(['secrets.template.yaml']);
  });

  for (const [name, objects] of Object.entries(builds)) {
    it(`${name}: every rendered object is valid and meets the deployment rules`, () => {
      expect(
        objects
          .filter((o) => o.kind === 'Deployment')
          .map((d) => d.metadata.name)
          .sort(),
      ).toEqual(['auth', 'gateway', 'render-worker-fast', 'render-worker-screenshot', 'templates']);
      expect(problems(objects)).toEqual([]);
      for (const o of objects) if (o.kind !== 'Namespace') expect(o.metadata.namespace, `${o.kind}/${o.metadata.name}`).toBe('render-api');
    });
  }

  it('images: one naming scheme; every overlay names your registry and a release for each image the base uses', () => {
    // The project's own pods (the in-cluster datastores' StatefulSets run upstream images).
    const podsOf = (objects: K8sObject[]) =>
      objects.flatMap((o) => (o.kind === 'Deployment' || o.kind === 'Job' ? [...containersOf(o), ...initContainersOf(o)] : []));
    const baseNames = new Set(podsOf(builds.base).map((c) => c.image.replace(/:[^:/]+$/, '')));
    expect([...baseNames].sort()).toEqual(['render-api/node', 'render-api/render-worker']);
    // docker-compose.yml builds the same names (IMAGE_REPOSITORY defaults to render-api), so `compose push` feeds the overlays.
    const compose = readFileSync(join(repo, 'docker-compose.yml'), 'utf8');
    const composeImages = [...compose.matchAll(/^\s*image: \$\{IMAGE_REPOSITORY:-render-api\}\/([\w-]+):\$\{IMAGE_TAG:-local\}$/gm)];
    expect(new Set(composeImages.map((m) => `render-api/${m[1]}`))).toEqual(baseNames);
    expect(compose.match(/^\s*image: render-api\//gm)).toBeNull();
    for (const overlay of ['production', 'small'] as const) {
      // A Component, so the overlay's Deployments and its migration Jobs share them.
      const k = parseYamlFile(join(root, `overlays/${overlay}/images/kustomization.yaml`))[0]!;
      expect(parseYamlFile(join(root, `overlays/${overlay}/kustomization.yaml`))[0]!.components, overlay).toContain('images');
      const images = (k.images ?? []) as { name: string; newName?: string; newTag?: string }[];
      expect(images.map((i) => i.name).sort(), overlay).toEqual([...baseNames].sort());
      for (const c of [...podsOf(builds[`overlays/${overlay}`]), ...podsOf(jobs[overlay])]) {
        expect(c.image, `${overlay}/${c.name}`).toMatch(/^[\w.-]+(:\d+)?\/[\w/-]+:[\w.-]+$/);
        expect(c.image, `${overlay}/${c.name}`).not.toMatch(/^render-api\/|:(latest|local)$/);
        expect(c.imagePullPolicy, `${overlay}/${c.name}`).toBe('IfNotPresent');
      }
    }
  });

  for (const overlay of ['production', 'small'] as const) {
    it(`overlays/${overlay}: the migration Jobs run the migrator (up, then seed; or --down) with the overlay's image`, () => {
      const migrate = kustomizeBuild(join(root, `overlays/${overlay}/migrate`));
      const rollback = kustomizeBuild(join(root, `overlays/${overlay}/rollback`));
      expect(migrate.map((o) => o.kind)).toEqual(['Job']);
      expect(rollback.map((o) => o.kind)).toEqual(['Job']);
      expect(jobProblems(migrate, builds[`overlays/${overlay}`], 'node dist/migrate.cli.js')).toEqual([]);
      expect(jobProblems(migrate, builds[`overlays/${overlay}`], 'node dist/seed.cli.js')).toEqual([]);
      expect(jobProblems(rollback, builds[`overlays/${overlay}`], 'node dist/migrate.cli.js --down')).toEqual([]);
      expect(initContainersOf(migrate[0]!).map((c) => c.command.join(' '))).toEqual(['node dist/migrate.cli.js']);
    });

    it(`overlays/${overlay}: Redis and Postgres admit exactly their clients (${overlay === 'small' ? 'in the cluster' : 'managed'})`, () => {
      const objects = [...builds[`overlays/${overlay}`], ...jobs[overlay]];
      expect(datastoreProblems(objects)).toEqual([]);
      expect(objects.some((o) => o.kind === 'StatefulSet')).toBe(overlay === 'small');
    });
  }

  it('datastores and jobs: the checks can fail', () => {
    const small = () => structuredClone([...builds['overlays/small'], ...jobs.small]);
    const objects = small();
    find(objects, 'NetworkPolicy', 'postgres').spec.ingress[0].from.pop();
    expect(datastoreProblems(objects)).toEqual([
      'postgres: its NetworkPolicy does not admit Job/render-api-migrate',
      'postgres: its NetworkPolicy does not admit Job/render-api-migrate-down',
    ]);
    const noKeda = small();
    find(noKeda, 'NetworkPolicy', 'redis').spec.ingress[0].from.pop();
    expect(datastoreProblems(noKeda)).toEqual(['redis: its NetworkPolicy does not admit the keda namespace']);
    // Base's placeholder range, which would not match the in-cluster pods.
    const placeholder = small();
    find(placeholder, 'NetworkPolicy', 'gateway').spec.egress[2].to = [{ ipBlock: { cidr: '10.100.0.0/28' } }];
    expect(datastoreProblems(placeholder)).toEqual(['Deployment/gateway: no egress to the in-cluster redis pods on 6379']);
    const job = structuredClone(jobs.production[0]!);
    job.spec.template.spec.containers[0].image = 'render-api/node:local';
    job.spec.template.spec.securityContext.runAsNonRoot = false;
    expect(jobProblems([job], builds['overlays/production'], 'node dist/seed.cli.js')).toEqual([
      'Job/render-api-migrate: pod not runAsNonRoot',
      "Job/render-api-migrate/seed: image render-api/node:local, not the overlay's registry.example.com/render-api/node:1.0.0",
    ]);
  });

  it('overlays: production keeps screenshot workers warm, small scales them to zero', () => {
    const min = (objects: K8sObject[], n: string) => find(objects, 'ScaledObject', n).spec.minReplicaCount;
    expect(min(builds['overlays/production'], 'render-worker-screenshot')).toBeGreaterThanOrEqual(1);
    expect(min(builds['overlays/small'], 'render-worker-screenshot')).toBe(0);
    expect(min(builds['overlays/small'], 'render-worker-fast')).toBeGreaterThanOrEqual(1);
    expect(find(builds['overlays/production'], 'HorizontalPodAutoscaler', 'gateway').spec.minReplicas).toBeGreaterThan(
      find(builds.base, 'HorizontalPodAutoscaler', 'gateway').spec.minReplicas,
    );
    expect(find(builds['overlays/production'], 'Deployment', 'gateway').spec.template.spec.containers[0].image).toBe(
      'registry.example.com/render-api/node:1.0.0',
    );
  });

  it('renders with the real kubectl kustomize, which refuses a broken kustomization', () => {
    const dir = mkdtempSync(join(tmpdir(), 'render-kustomize-'));
    try {
      writeFileSync(join(dir, 'kustomization.yaml'), 'resources:\n  - missing.yaml\n');
      expect(() => kustomizeBuild(dir)).toThrow(/kubectl kustomize .* failed: .*missing\.yaml/s);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails on broken objects (the checks can fail)', () => {
    const base = builds.base;
    const broken = structuredClone(find(base, 'Deployment', 'gateway'));
    broken.spec.template.spec.containers[0].ports[0].containerPort = 'http';
    broken.spec.template.spec.containers[0].resources.limits.cpu = 'lots';
    expect(() => validate(broken)).toThrow(/containerPort must be integer/);
    const so = structuredClone(find(base, 'ScaledObject', 'render-worker-fast'));
    so.spec.triggers[0].metadata.listLength = 6;
    expect(() => validate(so)).toThrow(/listLength must be string/);
    expect(() => validate({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x' } })).toThrow(/no model/);

    const mutate = (fn: (objects: K8sObject[]) => void) => {
      const objects = structuredClone(base);
      fn(objects);
      return problems(objects);
    };
    const worker = (objects: K8sObject[]) => find(objects, 'Deployment', 'render-worker-screenshot');
    const gatewayEnvOf = (objects: K8sObject[]) => find(objects, 'Deployment', 'gateway').spec.template.spec.containers[0].env;
    expect(mutate((o) => (worker(o).spec.template.spec.terminationGracePeriodSeconds = 25))).toEqual([
      expect.stringMatching(/terminationGracePeriodSeconds 25 not above/),
    ]);
    expect(mutate((o) => delete worker(o).spec.template.spec.containers[0].readinessProbe)).toEqual([
      expect.stringMatching(/readiness probe not \/health\/ready/),
      expect.stringMatching(/readiness probe timeout/),
    ]);
    expect(mutate((o) => (worker(o).spec.template.spec.securityContext.runAsNonRoot = false))).toEqual([
      expect.stringMatching(/not runAsNonRoot/),
    ]);
    expect(mutate((o) => o.splice(o.indexOf(find(o, 'PodDisruptionBudget', 'auth')), 1))).toEqual([
      expect.stringMatching(/0 PodDisruptionBudgets/),
    ]);
    expect(mutate((o) => o.splice(o.indexOf(find(o, 'ScaledObject', 'render-worker-screenshot')), 1))).toEqual(
      expect.arrayContaining([expect.stringMatching(/no ScaledObject/)]),
    );
    expect(mutate((o) => find(o, 'NetworkPolicy', 'render-worker').spec.egress[2].to[0].ipBlock.except.splice(3, 1))).toEqual(
      expect.arrayContaining([expect.stringMatching(/cloud metadata/), expect.stringMatching(/does not except 169.254.0.0\/16/)]),
    );
    expect(
      mutate((o) =>
        worker(o).spec.template.spec.containers[0].env.push({ name: 'X', valueFrom: { secretKeyRef: { name: SECRET_NAME, key: 'NOPE' } } }),
      ),
    ).toEqual([expect.stringMatching(/NOPE not in the template/)]);
    const gatewayEnv = (objects: K8sObject[]) => find(objects, 'Deployment', 'gateway').spec.template.spec.containers[0].env;
    expect(mutate((o) => (gatewayEnv(o).find((e: Any) => e.name === 'WEBHOOK_PORTS').value = '80,443,8443'))).toEqual([
      'gateway: WEBHOOK_PORTS allows 8443, which the workers cannot reach',
    ]);
    expect(
      mutate((o) =>
        gatewayEnv(o).splice(
          gatewayEnv(o).findIndex((e: Any) => e.name === 'WEBHOOK_PORTS'),
          1,
        ),
      ),
    ).toEqual([expect.stringMatching(/WEBHOOK_PORTS not set/)]);
    expect(mutate((o) => o.splice(o.indexOf(find(o, 'ServiceMonitor', 'render-worker')), 1))).toEqual([
      'Deployment/render-worker-fast: no ServiceMonitor scrapes it',
      'Deployment/render-worker-screenshot: no ServiceMonitor scrapes it',
    ]);
    expect(mutate((o) => (find(o, 'NetworkPolicy', 'gateway').spec.ingress[1].ports[0].port = 9465))).toEqual([
      'Deployment/gateway: no NetworkPolicy admits the monitoring namespace on metrics port 9464',
    ]);
    expect(mutate((o) => (find(o, 'ServiceMonitor', 'gateway').spec.endpoints[0].port = 'http'))).toEqual([
      'Deployment/gateway: no NetworkPolicy admits the monitoring namespace on metrics port 3000',
      'Deployment/gateway: metrics port 3000 is open to everyone',
    ]);
    expect(mutate((o) => delete worker(o).spec.template.spec.containers[0].readinessProbe.timeoutSeconds)).toEqual([
      expect.stringMatching(/readiness probe timeout not above the health checks' 2000 ms bound/),
    ]);
    expect(mutate((o) => (find(o, 'ScaledObject', 'render-worker-fast').spec.triggers[0].metadata.enableTLS = 'false'))).toEqual([
      expect.stringMatching(/sets enableTLS/),
    ]);
    expect(mutate((o) => find(o, 'TriggerAuthentication', 'render-redis').spec.secretTargetRef.pop())).toEqual([
      expect.stringMatching(/not address\/password\/tls/),
    ]);
    expect(mutate((o) => (gatewayEnvOf(o).find((e: Any) => e.name === 'REDIS_URL').value = 'redis://redis:6379'))).toEqual([
      expect.stringMatching(/REDIS_URL not built from the secret/),
    ]);
    const ingress = (objects: K8sObject[]) => find(objects, 'Ingress', 'gateway') as Any;
    expect(gatewayBodyLimit).toBe(5 * 1024 * 1024);
    expect(mutate((o) => delete ingress(o).metadata.annotations['nginx.ingress.kubernetes.io/proxy-body-size'])).toEqual([
      "Ingress/gateway: proxy-body-size below the gateway's 5242880-byte body limit",
    ]);
    expect(mutate((o) => (ingress(o).spec.tls = []))).toEqual(['Ingress/gateway: host render.example.com has no TLS']);
    const templates = (objects: K8sObject[]) => find(objects, 'Deployment', 'templates');
    expect(mutate((o) => templates(o).spec.template.spec.initContainers.shift())).toEqual([
      expect.stringMatching(/Deployment\/templates: no init container runs the migrations/),
    ]);
    expect(mutate((o) => (templates(o).spec.template.spec.initContainers[1].securityContext.readOnlyRootFilesystem = false))).toEqual([
      expect.stringMatching(/templates\/seed: root filesystem not read-only/),
    ]);
    expect(mutate((o) => (worker(o).spec.template.spec.containers[0].env[0].value = 'screenshot,html'))).toEqual(
      expect.arrayContaining([expect.stringMatching(/queue html is served by two groups/)]),
    );
  });
});
