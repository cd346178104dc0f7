import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from './helpers/stack.ts';

describe('auth health and metrics', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack();
  });

  afterAll(async () => {
    await stack?.close();
  });

  it('is live and ready with Postgres', async () => {
    const live = await fetch(`${stack.url}/health/live`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${stack.url}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', checks: { postgres: 'ok' } });
  });

  it('serves metrics with the route pattern', async () => {
    const res = await fetch(`${stack.url}/metrics`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('process_resident_memory_bytes');
    expect(text).toMatch(
      /http_request_duration_seconds_count\{service="auth",route="\/health\/ready",method="GET",status_code="200"\} \d+/,
    );
  });
});
