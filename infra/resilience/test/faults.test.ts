/**
 * Fault tests with real processes (issue 15): the gateway, auth and render workers run as in production
 * (bench/lib/processes.ts starts them), over this suite's own Redis and Postgres, and we break things
 * under them: kill a worker mid-job, stop one under load, restart Redis, kill Chromium, restart Postgres.
 * Callers use only the public API with an API key, and the usage endpoint to check what they were charged.
 */

import {
  browserPids,
  busyWorker,
  chromiumPids,
  isAlive,
  metricValue,
  RENDER_DEADLINE_MS,
  type Stack,
  startStack,
  stopEverything,
  type Worker,
  workerReady,
} from '@render/test-stack/resilience-stack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Answer,
  convert,
  describe as describeAnswer,
  errorMessage,
  fastHtml,
  isPng,
  ledgerStatuses,
  settledUsage,
  slowHtml,
} from './helpers/client.ts';

/** A client gives up this long after the gateway's deadline: past it, the request hung. */
const CLIENT_LIMIT_MS = RENDER_DEADLINE_MS + 10_000;

let stack: Stack;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (message: string) => console.log(`[resilience] ${message}`);

beforeAll(async () => {
  const started = Date.now();
  stack = await startStack();
  log(`stack up in ${Date.now() - started} ms (${stack.gatewayUrl}, workers ${stack.workers.map((w) => w.pid).join(', ')})`);
}, 240_000);

afterAll(async () => {
  const warnings = stack?.warnings() ?? [];
  if (warnings.length)
    log(
      `service warnings (first 20 of ${warnings.length}):\n${warnings
        .slice(0, 20)
        .map((w) => w.slice(0, 300))
        .join('\n')}`,
    );
  // Also after a start that failed half-way (stack unset): what it had started is registered.
  await stopEverything();
}, 120_000);

const waitFor = async (what: string, check: () => Promise<boolean> | boolean, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(200);
  }
  throw new Error(`${what}: not within ${timeoutMs} ms`);
};

/** Every answer is an image, or an error the caller can act on: 4xx or 503/504 with a message. Never a hang. */
function expectImageOrClearError(answers: Answer[]) {
  for (const a of answers) {
    expect(a.error, describeAnswer(a)).toBeUndefined();
    if (a.status === 200) {
      expect(isPng(a), describeAnswer(a)).toBe(true);
      continue;
    }
    const clear = (a.status >= 400 && a.status < 500) || a.status === 503 || a.status === 504;
    expect(clear, describeAnswer(a)).toBe(true);
    expect(errorMessage(a), describeAnswer(a)).toBeTruthy();
    expect(a.ms, describeAnswer(a)).toBeLessThanOrEqual(RENDER_DEADLINE_MS + 5_000);
  }
}

/**
 * The account was charged exactly once per image: `used` (charged + reserved) equals the images, and
 * every one of them is settled as charged. A row left 'reserved' counts as used now, but the account
 * service's sweep releases it later (CREDIT_RESERVATION_TIMEOUT_SECONDS): an image that is never paid for.
 */
async function expectChargedOncePerImage(apiKey: string, images: number, label: string) {
  const charged = await settledUsage(stack.gatewayUrl, apiKey, { timeoutMs: 40_000, stableReads: 4 });
  const ledger = await ledgerStatuses(stack.gatewayUrl, apiKey);
  log(`${label}: ${images} images, used ${charged.used}, ledger ${JSON.stringify(ledger)}`);
  expect(charged.used, 'used credits').toBe(images);
  expect(ledger.charged ?? 0, 'rows settled as charged').toBe(images);
  expect(ledger.reserved ?? 0, 'rows left reserved (to be released by the sweep: lost credits)').toBe(0);
}

const tally = (answers: Answer[]) =>
  Object.entries(
    answers.reduce<Record<string, number>>((acc, a) => {
      const key = a.error ? 'no answer' : String(a.status);
      acc[key] = (acc[key] ?? 0) + 1;
      return acc;
    }, {}),
  )
    .map(([k, v]) => `${k}×${v}`)
    .join(' ');

describe('fault tolerance with real processes', () => {
  it('a worker SIGKILLed mid-job: another worker finishes the job and the account is charged once', async () => {
    const workers = await stack.ensureWorkers(2);
    const apiKey = await stack.freeAccountKey();
    const started = Date.now();
    const pending = convert(stack.gatewayUrl, apiKey, slowHtml(2_500, 'killed mid-job'), CLIENT_LIMIT_MS);

    const holder = await busyWorker(workers, 10_000);
    expect(holder, 'no worker took the job').toBeDefined();
    const victim = holder as Worker;
    const browsers = chromiumPids(victim);
    victim.service.child.kill('SIGKILL');
    log(`test 1: SIGKILLed ${victim.name} (pid ${victim.pid}) ${Date.now() - started} ms after the request`);

    const answer = await pending;
    log(`test 1: answer ${describeAnswer(answer)}`);
    expect(answer.status, describeAnswer(answer)).toBe(200);
    expect(isPng(answer)).toBe(true);
    // Its Chromium went with it (CDP over a pipe).
    await waitFor('the killed worker’s Chromium to exit', () => browsers.every((pid) => !isAlive(pid)), 10_000);

    await expectChargedOncePerImage(apiKey, 1, 'test 1');
    await victim.service.stop();
  }, 90_000);

  it('a worker SIGTERMed under load drains: every in-flight request ends with an image', async () => {
    const workers = await stack.ensureWorkers(2);
    const apiKey = await stack.freeAccountKey();
    const started = Date.now();
    const pending = Array.from({ length: 8 }, (_, i) => convert(stack.gatewayUrl, apiKey, slowHtml(1_200, `load ${i}`), CLIENT_LIMIT_MS));

    const victim = (await busyWorker(workers, 10_000)) ?? (workers[0] as Worker);
    const exited = new Promise<number | null>((resolve) => victim.service.child.once('exit', (code) => resolve(code)));
    victim.service.child.kill('SIGTERM');
    log(`test 2: SIGTERMed ${victim.name} ${Date.now() - started} ms after 8 requests were sent`);

    const answers = await Promise.all(pending);
    log(`test 2: answers ${tally(answers)}, slowest ${Math.max(...answers.map((a) => a.ms))} ms`);
    for (const a of answers) {
      expect(a.status, describeAnswer(a)).toBe(200);
      expect(isPng(a), describeAnswer(a)).toBe(true);
    }
    // A drain, not a crash: the worker exits 0 once its jobs are done.
    const code = await Promise.race([exited, sleep(40_000).then(() => 'still running' as const)]);
    log(`test 2: ${victim.name} exited with ${code} ${Date.now() - started} ms after the start`);
    expect(code).toBe(0);

    await expectChargedOncePerImage(apiKey, 8, 'test 2');
    await victim.service.stop();
  }, 120_000);

  it('Redis restarted during load: answers are images or clear errors, none hangs; then new requests succeed', async () => {
    const workers = await stack.ensureWorkers(2);
    const apiKey = await stack.freeAccountKey();
    const started = Date.now();
    const pending: Promise<Answer>[] = [];
    for (let i = 0; i < 12; i++) {
      pending.push(convert(stack.gatewayUrl, apiKey, slowHtml(400, `redis ${i}`), CLIENT_LIMIT_MS));
      if (i === 4) {
        await stack.redis.stop();
        log(`test 3: Redis stopped at ${Date.now() - started} ms`);
      }
      if (i === 8) {
        await stack.redis.start();
        log(`test 3: Redis started again at ${Date.now() - started} ms`);
      }
      await sleep(300);
    }
    const answers = await Promise.all(pending);
    log(`test 3: answers during the restart ${tally(answers)}; ${answers.map((a) => `${a.status}/${a.ms}ms`).join(' ')}`);
    for (const a of answers.filter((x) => x.status !== 200)) log(`test 3: ${describeAnswer(a)}`);
    expectImageOrClearError(answers);

    // Workers reconnect (their readiness says so), and new calls render.
    await waitFor(
      'workers ready after the Redis restart',
      async () => (await Promise.all(workers.map(workerReady))).every(Boolean),
      30_000,
    );
    const recovered = Date.now();
    let first: Answer | undefined;
    while (Date.now() - recovered < 30_000) {
      first = await convert(stack.gatewayUrl, apiKey, fastHtml('after redis'), CLIENT_LIMIT_MS);
      if (first.status === 200) break;
      await sleep(500);
    }
    expect(first?.status, first && describeAnswer(first)).toBe(200);
    log(`test 3: first success ${Date.now() - recovered} ms after the workers were ready`);
    const after = await Promise.all(
      Array.from({ length: 4 }, (_, i) => convert(stack.gatewayUrl, apiKey, fastHtml(`after ${i}`), CLIENT_LIMIT_MS)),
    );
    for (const a of after) expect(isPng(a), describeAnswer(a)).toBe(true);

    // Only answered images are charged.
    const images = answers.filter((a) => a.status === 200).length + 1 + after.length;
    await expectChargedOncePerImage(apiKey, images, 'test 3');
  }, 150_000);

  it('Chromium SIGKILLed under a worker: the next job succeeds', async () => {
    const workers = await stack.ensureWorkers(2);
    const apiKey = await stack.freeAccountKey();
    const restartsBefore = await Promise.all(workers.map((w) => metricValue(w, 'browser_restarts_total')));
    // Under every worker, so the next job meets a dead browser wherever it goes.
    const killed: number[] = [];
    for (const worker of workers) {
      const pids = browserPids(worker);
      expect(pids.length, `${worker.name} has no Chromium child`).toBeGreaterThan(0);
      for (const pid of pids) process.kill(pid, 'SIGKILL');
      killed.push(...pids);
    }
    log(`test 4: SIGKILLed Chromium ${killed.join(', ')}`);
    await waitFor('Chromium to exit', () => killed.every((pid) => !isAlive(pid)), 10_000);

    const answers: Answer[] = [];
    answers.push(await convert(stack.gatewayUrl, apiKey, fastHtml('after chromium'), CLIENT_LIMIT_MS));
    log(`test 4: next job ${describeAnswer(answers[0] as Answer)}`);
    expect(isPng(answers[0] as Answer), describeAnswer(answers[0] as Answer)).toBe(true);
    answers.push(
      ...(await Promise.all(Array.from({ length: 4 }, (_, i) => convert(stack.gatewayUrl, apiKey, fastHtml(`c ${i}`), CLIENT_LIMIT_MS)))),
    );
    for (const a of answers) expect(isPng(a), describeAnswer(a)).toBe(true);

    const restartsAfter = await Promise.all(workers.map((w) => metricValue(w, 'browser_restarts_total')));
    log(`test 4: browser restarts ${restartsBefore.join(',')} → ${restartsAfter.join(',')}`);
    expect(restartsAfter.reduce((a, b) => a + b, 0)).toBeGreaterThan(restartsBefore.reduce((a, b) => a + b, 0));
    await waitFor('workers ready again', async () => (await Promise.all(workers.map(workerReady))).every(Boolean), 30_000);
    await expectChargedOncePerImage(apiKey, answers.length, 'test 4');
  }, 120_000);

  it('Postgres restarted during keyed renders: auth recovers and no credit is double-charged or lost', async () => {
    await stack.ensureWorkers(2);
    const apiKey = await stack.freeAccountKey();
    const answers: Answer[] = [];
    let stopAt = 0;
    let startedAgainAt = 0;
    let imagesAfterRestart = 0;
    const started = Date.now();
    // Two callers, paced: the Free plan has 50 credits, and the run must stay below them.
    let stopping = false;
    const images = () => answers.filter((a) => a.status === 200).length;
    const caller = async (id: number) => {
      for (let i = 0; !stopping && images() < 40; i++) {
        const sentAt = Date.now();
        // Caller 1's renders take a while, so some finish (and are charged) while Postgres is down.
        const html = id === 1 ? slowHtml(1_200, `pg ${id}.${i}`) : fastHtml(`pg ${id}.${i}`);
        const answer = await convert(stack.gatewayUrl, apiKey, html, CLIENT_LIMIT_MS);
        answers.push(answer);
        if (startedAgainAt && sentAt >= startedAgainAt && answer.status === 200) imagesAfterRestart += 1;
        await sleep(answer.status === 200 ? 300 : 500);
      }
    };
    const callers = [caller(1), caller(2)];
    await sleep(1_000);
    stopAt = Date.now();
    await stack.postgres.stop();
    log(`test 5: Postgres stopped (${Date.now() - started} ms in, stop took ${Date.now() - stopAt} ms)`);
    // What a script reading its usage meets meanwhile: a 503 it can retry, not a 500.
    const usageWhileDown = await fetch(`${stack.gatewayUrl}/api/auth/usage`, {
      headers: { 'x-api-key': apiKey },
      signal: AbortSignal.timeout(10_000),
    });
    const usageDownBody = await usageWhileDown.text();
    log(`test 5: usage while Postgres is down: ${usageWhileDown.status} ${usageDownBody}`);
    await sleep(2_500);
    const restarting = Date.now();
    await stack.postgres.start();
    startedAgainAt = Date.now();
    log(`test 5: Postgres started again (${startedAgainAt - started} ms in, start took ${startedAgainAt - restarting} ms)`);
    // Keep going until calls sent after the restart have rendered a few times, or give up.
    const recovered = await waitFor('three images after the restart', () => imagesAfterRestart >= 3, 30_000).then(
      () => true,
      () => false,
    );
    stopping = true;
    await Promise.all(callers);

    log(`test 5: ${answers.length} answers ${tally(answers)}; ${answers.map((a) => `${a.status}/${a.ms}ms`).join(' ')}`);
    for (const a of answers.filter((x) => x.status !== 200).slice(0, 12)) log(`test 5: ${describeAnswer(a)}`);
    expect(recovered, 'no three images from calls sent after Postgres was back (within 30 s)').toBe(true);
    expectImageOrClearError(answers);
    expect(usageWhileDown.status, `usage while Postgres was down: ${usageDownBody}`).toBe(503);
    expect(
      answers.some((a) => a.status === 503),
      'no call met the stopped database',
    ).toBe(true);

    await expectChargedOncePerImage(apiKey, images(), 'test 5');
  }, 150_000);
});
