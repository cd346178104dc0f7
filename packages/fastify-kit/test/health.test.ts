import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { errorHandler, health, metrics, requireInternalToken } from '../src/index.ts';

let server: FastifyInstance | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(failing: boolean): Promise<string> {
  server = Fastify();
  await server.register(errorHandler);
  await server.register(health, {
    checks: [
      { name: 'always', check: async () => {} },
      {
        name: 'flaky',
        check: async () => {
          if (failing) throw new Error('connection refused');
        },
      },
    ],
  });
  await server.register(metrics, { service: 'test', guard: requireInternalToken('a-token-of-16-chars!') });
  server.get('/items/:id', async () => ({ ok: true }));
  return server.listen({ port: 0, host: '127.0.0.1' });
}

describe('health plugin', () => {
  it('answers live and ready', async () => {
    const url = await start(false);
    const live = await fetch(`${url}/health/live`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${url}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', checks: { always: 'ok', flaky: 'ok' } });
  });

  it('answers 503 naming the failing check', async () => {
    const url = await start(true);
    const ready = await fetch(`${url}/health/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'unavailable', checks: { always: 'ok', flaky: 'connection refused' } });
    expect((await fetch(`${url}/health/live`)).status).toBe(200);
  });

  it('answers 503 while draining', async () => {
    const url = await start(false);
    server!.health.drain();
    const ready = await fetch(`${url}/health/ready`);
    expect(ready.status).toBe(503);
    const body = (await ready.json()) as { status: string; checks: Record<string, string> };
    expect(body.status).toBe('unavailable');
    expect(body.checks.draining).toBe('shutting down');
  });
});

describe('metrics plugin', () => {
  it('guards /metrics and labels durations by route pattern', async () => {
    const url = await start(false);
    await fetch(`${url}/items/raw-id-zq`);
    expect((await fetch(`${url}/metrics`)).status).toBe(401);
    const res = await fetch(`${url}/metrics`, { headers: { 'x-internal-token': 'a-token-of-16-chars!' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toMatch(/http_request_duration_seconds_count\{service="test",route="\/items\/:id",method="GET",status_code="200"\} 1/);
    expect(text).not.toContain('raw-id-zq');
  });

  it('serves /metrics on a port of its own, unguarded, and not on the service port', async () => {
    server = Fastify();
    await server.register(errorHandler);
    await server.register(metrics, { service: 'test', port: 0, host: '127.0.0.1' });
    server.get('/items/:id', async () => ({ ok: true }));
    const url = await server.listen({ port: 0, host: '127.0.0.1' });
    const metricsPort = server.metricsPort;
    expect(metricsPort).toBeGreaterThan(0);
    expect(new URL(url).port).not.toBe(String(metricsPort));
    await fetch(`${url}/items/7`);
    expect((await fetch(`${url}/metrics`)).status).toBe(404);
    const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(
      /http_request_duration_seconds_count\{service="test",route="\/items\/:id",method="GET",status_code="200"\} 1/,
    );
    expect((await fetch(`http://127.0.0.1:${metricsPort}/other`)).status).toBe(404);
    await server.close();
    server = undefined;
    // Closed with the service: the port no longer answers.
    await expect(fetch(`http://127.0.0.1:${metricsPort}/metrics`)).rejects.toThrow();
  });
});
