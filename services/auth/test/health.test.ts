import { expectLiveAndReady } from '@render/test-stack/health-probes';
import { describe, expect, it } from 'vitest';
import { suiteStack } from './helpers/stack.ts';

describe('auth health and metrics', () => {
  const stack = suiteStack();

  it('is live and ready with Postgres', async () => {
    await expectLiveAndReady(stack().url, ['postgres']);
  });

  it('serves metrics with the route pattern', async () => {
    const res = await fetch(`${stack().url}/metrics`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('process_resident_memory_bytes');
    expect(text).toMatch(
      /http_request_duration_seconds_count\{service="auth",route="\/health\/ready",method="GET",status_code="200"\} \d+/,
    );
  });
});
