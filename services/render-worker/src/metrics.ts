import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/** The worker process's metrics, on its one registry (served by `http-server.ts` at GET /metrics). */
export interface WorkerMetrics {
  registry: Registry;
  renderDuration: Histogram<'format' | 'kind'>;
  renderFailures: Counter<'format' | 'cause'>;
  browserRestarts: Counter;
  pagesRecycled: Counter<'reason'>;
  egressRefusals: Counter<'reason'>;
  webhookDeliveries: Counter<'result'>;
}

export function createWorkerMetrics(): WorkerMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service: 'render-worker' });
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    renderDuration: new Histogram({
      name: 'render_duration_seconds',
      help: 'Time a worker spent on one successful render (kind: the queue, format: the image format)',
      labelNames: ['format', 'kind'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    renderFailures: new Counter({
      name: 'render_failures_total',
      help: 'Failed render attempts (cause: invalid job, content the caller sent, or infrastructure, which is retried)',
      labelNames: ['format', 'cause'] as const,
      registers,
    }),
    browserRestarts: new Counter({
      name: 'browser_restarts_total',
      help: 'Chromium relaunches after a crash or lost connection',
      registers,
    }),
    pagesRecycled: new Counter({
      name: 'pages_recycled_total',
      help: 'Warm pages closed and replaced by their pool',
      labelNames: ['reason'] as const,
      registers,
    }),
    egressRefusals: new Counter({
      name: 'egress_refusals_total',
      help: 'Requests the egress proxy refused (blocked by the policy) or could not connect (unreachable)',
      labelNames: ['reason'] as const,
      registers,
    }),
    webhookDeliveries: new Counter({
      name: 'webhook_deliveries_total',
      help: 'Webhook delivery attempts (result: delivered, retrying: failed and will be retried, failed: given up)',
      labelNames: ['result'] as const,
      registers,
    }),
  };
}
