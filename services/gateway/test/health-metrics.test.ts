import { createServer } from 'node:net';
import { expectLiveAndReady, expectLiveNotReady } from '@render/test-stack/health-probes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway, uniquePrefix } from './helpers/stack.ts';

const INTERNAL_TOKEN = 'health-metrics-test-token';

/** A port free right now (the OS picks it), for the gateway's METRICS_PORT. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe('gateway health and metrics', () => {
  let gateway: TestGateway;
  let down: TestGateway;

  beforeAll(async () => {
    gateway = await startGateway({ QUEUE_PREFIX: uniquePrefix('health'), INTERNAL_TOKEN });
    // Redis on a port nothing listens on.
    down = await startGateway({ QUEUE_PREFIX: uniquePrefix('health-down'), REDIS_URL: 'redis://127.0.0.1:9', REDIS_BOOT_WAIT_MS: '0' });
  });

  afterAll(async () => {
    await gateway?.close();
    await down?.close();
  });

  it('is live and ready with Redis', async () => {
    await expectLiveAndReady(gateway.url, ['redis']);
  });

  it('is live but not ready without Redis', async () => {
    const body = await expectLiveNotReady(down.url, 'redis');
    expect(body.status).toBe('unavailable');
  });

  it('refuses /metrics without the internal token', async () => {
    expect((await fetch(`${gateway.url}/metrics`)).status).toBe(401);
    const wrong = await fetch(`${gateway.url}/metrics`, { headers: { 'x-internal-token': 'not-the-right-token' } });
    expect(wrong.status).toBe(401);
    // A gateway without a configured token serves it to nobody.
    expect((await fetch(`${down.url}/metrics`)).status).toBe(401);
  });

  it('serves Prometheus text with the token', async () => {
    expect((await fetch(`${gateway.url}/api/ping`)).status).toBe(200);
    const res = await fetch(`${gateway.url}/metrics`, { headers: { 'x-internal-token': INTERNAL_TOKEN } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(text).toContain('process_resident_memory_bytes');
    expect(text).toMatch(/http_request_duration_seconds_count\{service="gateway",route="\/api\/ping",method="GET",status_code="200"\} \d+/);
    expect(text).toMatch(/render_queue_waiting\{[^}]*queue="html"[^}]*\} \d+/);
    expect(text).toMatch(/render_queue_active\{[^}]*queue="html"[^}]*\} \d+/);
    expect(text).toContain('# TYPE render_queue_wait_seconds histogram');
    expect(text).toContain('# TYPE credits_charged_total counter');
  });

  it('serves /metrics without a token on METRICS_PORT, and no longer on the public port', async () => {
    const port = await freePort();
    const separate = await startGateway({
      QUEUE_PREFIX: uniquePrefix('health-port'),
      INTERNAL_TOKEN,
      METRICS_PORT: String(port),
      HOST: '127.0.0.1',
    });
    try {
      expect((await fetch(`${separate.url}/metrics`, { headers: { 'x-internal-token': INTERNAL_TOKEN } })).status).toBe(404);
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).toMatch(/render_queue_waiting\{[^}]*queue="html"[^}]*\} \d+/);
      expect(text).toContain('# TYPE credits_charged_total counter');
    } finally {
      await separate.close();
    }
  });
});
