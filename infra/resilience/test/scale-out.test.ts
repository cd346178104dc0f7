/**
 * Scaled out on one machine (issue 31, "Capacity, measured"): two gateways and two render workers over one
 * Redis and one Postgres, behind a round-robin proxy (@fastify/reply-from over undici's BalancedPool), as a
 * platform would run them behind its load balancer. Callers use the public API with an API key and retry
 * what the API tells them to retry (503 and 504, or a dropped connection). Redis and then Postgres are
 * restarted once each while they call. Every request must end with its image (none lost) and the account
 * must be charged exactly once per request (none charged twice, none charged for an attempt that failed).
 */

import { metricSum, RENDER_DEADLINE_MS, type Stack, startStack, stopEverything, workerReady } from '@render/test-stack/resilience-stack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Answer,
  convert,
  describe as describeAnswer,
  errorMessage,
  isPng,
  ledgerStatuses,
  settledUsage,
  slowHtml,
} from './helpers/client.ts';
import { type RoundRobinProxy, startRoundRobinProxy } from './helpers/round-robin-proxy.ts';

const CLIENT_LIMIT_MS = RENDER_DEADLINE_MS + 10_000;
/** How long one request may keep retrying before it counts as lost. */
const REQUEST_BUDGET_MS = 90_000;
/** Below the Free plan's 50 credits, so every request is paid from credits. */
const REQUESTS = 40;
const CALLERS = 3;
const CONVERT_ROUTE = 'route="/api/html-to-img/convert"';

let stack: Stack;
let proxy: RoundRobinProxy;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (message: string) => console.log(`[scale-out] ${message}`);

beforeAll(async () => {
  const started = Date.now();
  stack = await startStack({ gateways: 2 });
  proxy = await startRoundRobinProxy(stack.gateways.map((g) => g.url));
  log(
    `2 gateways, 2 workers and the proxy up in ${Date.now() - started} ms (${proxy.url} → ${stack.gateways.map((g) => g.url).join(', ')})`,
  );
}, 240_000);

afterAll(async () => {
  await proxy?.close();
  await stopEverything();
}, 120_000);

interface Attempt extends Answer {
  /** When it was sent and when its answer ended (ms since the epoch). */
  sentAt: number;
  endedAt: number;
}

interface Outcome {
  index: number;
  attempts: Attempt[];
  final?: Answer;
}

interface Window {
  from: number;
  to: number;
}

/** One logical request: the same render, retried while the API answers "try again" (503/504) or the connection drops. */
async function renderUntilDone(url: string, apiKey: string, index: number): Promise<Outcome> {
  const outcome: Outcome = { index, attempts: [] };
  const started = Date.now();
  while (Date.now() - started < REQUEST_BUDGET_MS) {
    const sentAt = Date.now();
    const answer = await convert(url, apiKey, slowHtml(400, `scale ${index}`), CLIENT_LIMIT_MS);
    outcome.attempts.push({ ...answer, sentAt, endedAt: Date.now() });
    const retry = answer.status === 0 || answer.status === 503 || answer.status === 504;
    if (!retry) {
      outcome.final = answer;
      return outcome;
    }
    await sleep(500);
  }
  return outcome;
}

const convertCount = (metricsUrl: string) =>
  metricSum(metricsUrl, 'http_request_duration_seconds_count', [CONVERT_ROUTE, 'status_code="200"']);

describe('two gateways and two workers behind a round-robin proxy', () => {
  it('Redis and Postgres restarted mid-run: every request ends with its image, each charged exactly once', async () => {
    const apiKey = await stack.freeAccountKey();
    const servedBefore = await Promise.all(stack.gateways.map((g) => convertCount(g.metricsUrl)));
    const renderedBefore = await Promise.all(
      stack.workers.map((w) => metricSum(`http://127.0.0.1:${w.httpPort}/metrics`, 'render_duration_seconds_count')),
    );

    let next = 0;
    let finished = 0;
    const outcomes: Outcome[] = [];
    const caller = async () => {
      while (next < REQUESTS) {
        const index = next++;
        outcomes.push(await renderUntilDone(proxy.url, apiKey, index));
        finished += 1;
      }
    };
    const started = Date.now();
    const callers = Array.from({ length: CALLERS }, () => caller());
    const waitFinished = async (count: number) => {
      while (finished < count && Date.now() - started < 5 * REQUEST_BUDGET_MS) await sleep(100);
    };

    const outage = async (what: string, stop: () => Promise<void>, start: () => Promise<void>, downMs: number): Promise<Window> => {
      log(`${what} stopping at ${Date.now() - started} ms (${finished} finished)`);
      await stop();
      const from = Date.now();
      await sleep(downMs);
      const to = Date.now();
      await start();
      log(`${what} down from ${from - started} to ${to - started} ms, started again at ${Date.now() - started} ms`);
      return { from, to };
    };
    await waitFinished(6);
    const redisDown = await outage('Redis', stack.redis.stop, stack.redis.start, 2_000);
    await waitFinished(18);
    const postgresDown = await outage('Postgres', stack.postgres.stop, stack.postgres.start, 2_500);
    await Promise.all(callers);

    const attempts = outcomes.flatMap((o) => o.attempts);
    const byStatus: Record<string, number> = {};
    for (const a of attempts) byStatus[a.status] = (byStatus[a.status] ?? 0) + 1;
    log(`${REQUESTS} requests in ${Date.now() - started} ms, ${attempts.length} attempts by status ${JSON.stringify(byStatus)}`);
    for (const a of attempts.filter((x) => x.status !== 200).slice(0, 10)) log(`retried: ${describeAnswer(a)}`);

    // None lost: every request ended with its image.
    expect(outcomes).toHaveLength(REQUESTS);
    for (const o of outcomes) {
      const last = o.final ?? o.attempts.at(-1);
      expect(o.final && isPng(o.final), `request ${o.index}: ${last ? describeAnswer(last) : 'no attempt'}`).toBe(true);
    }
    // Every attempt that did not give an image said why, within the deadline: no hang, no bare 500.
    for (const a of attempts.filter((x) => x.status !== 200)) {
      if (a.status !== 0) expect(errorMessage(a), describeAnswer(a)).toBeTruthy();
      expect(a.ms, describeAnswer(a)).toBeLessThanOrEqual(RENDER_DEADLINE_MS + 5_000);
    }
    // Requests were in flight through both outages (else this test proved nothing about them).
    const inFlightDuring = (w: Window) => attempts.filter((a) => a.sentAt < w.to && a.endedAt > w.from).length;
    log(`attempts in flight while Redis was down: ${inFlightDuring(redisDown)}, while Postgres was down: ${inFlightDuring(postgresDown)}`);
    expect(inFlightDuring(redisDown), 'no request met the stopped Redis').toBeGreaterThan(0);
    expect(inFlightDuring(postgresDown), 'no request met the stopped Postgres').toBeGreaterThan(0);

    // Both gateways answered renders, and both workers rendered them.
    const servedAfter = await Promise.all(stack.gateways.map((g) => convertCount(g.metricsUrl)));
    const served = servedAfter.map((n, i) => n - (servedBefore[i] ?? 0));
    log(`images answered per gateway: ${served.join(', ')}`);
    for (const n of served) expect(n).toBeGreaterThan(0);
    expect(served.reduce((a, b) => a + b, 0)).toBe(REQUESTS);
    await Promise.all(stack.workers.map((w) => workerReady(w)));
    const renderedAfter = await Promise.all(
      stack.workers.map((w) => metricSum(`http://127.0.0.1:${w.httpPort}/metrics`, 'render_duration_seconds_count')),
    );
    const rendered = renderedAfter.map((n, i) => n - (renderedBefore[i] ?? 0));
    // More renders than images is expected: a request that met the stopped Postgres may have rendered (its
    // credit check runs beside the queue) and been answered 503; that render is not charged.
    log(`renders per worker: ${rendered.join(', ')} (${rendered.reduce((a, b) => a + b, 0)} renders for ${REQUESTS} images)`);
    for (const n of rendered) expect(n).toBeGreaterThan(0);

    // Charged exactly once per request: the usage and the ledger agree.
    const usage = await settledUsage(proxy.url, apiKey, { timeoutMs: 60_000 });
    const ledger = await ledgerStatuses(proxy.url, apiKey);
    log(`usage ${JSON.stringify(usage)}; ledger ${JSON.stringify(ledger)}`);
    expect(usage.used).toBe(REQUESTS);
    expect(ledger.charged).toBe(REQUESTS);
    expect(ledger.reserved ?? 0).toBe(0);
  }, 600_000);
});
