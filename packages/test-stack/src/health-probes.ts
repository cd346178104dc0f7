import { expect } from 'vitest';

/** What /health/ready answers (fastify-kit's `health`). */
export interface Readiness {
  status: string;
  checks: Record<string, string>;
}

/** Asserts that the service at `url` is live and ready, every one of its readiness checks (`checks`) ok. */
export async function expectLiveAndReady(url: string, checks: readonly string[]): Promise<void> {
  const live = await fetch(`${url}/health/live`);
  expect(live.status).toBe(200);
  expect(await live.json()).toEqual({ status: 'ok' });
  const ready = await fetch(`${url}/health/ready`);
  expect(ready.status).toBe(200);
  expect(await ready.json()).toEqual({ status: 'ok', checks: Object.fromEntries(checks.map((name) => [name, 'ok'])) });
}

/** Asserts that the service at `url` is live but not ready, its check `failing` not ok; the readiness body, to look further. */
export async function expectLiveNotReady(url: string, failing: string): Promise<Readiness> {
  expect((await fetch(`${url}/health/live`)).status).toBe(200);
  const ready = await fetch(`${url}/health/ready`);
  expect(ready.status).toBe(503);
  const body = (await ready.json()) as Readiness;
  expect(body.checks[failing]).not.toBe('ok');
  return body;
}
