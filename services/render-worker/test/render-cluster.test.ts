import { setTimeout as sleep } from 'node:timers/promises';
import { parseAllowlist } from '@render/egress-policy';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EgressProxy, startEgressProxy } from '../src/egress/egress-proxy.ts';
import { startTestPool, type TestPool } from './helpers/test-pool.ts';

let proxy: EgressProxy;
let pool: TestPool;
let rotating: TestPool;

beforeAll(async () => {
  proxy = await startEgressProxy({ allowlist: parseAllowlist('') });
  pool = await startTestPool('generic', proxy.url, 'render-cluster-test', 3, { pick: 'most-recent' });
  rotating = await startTestPool('generic', proxy.url, 'render-cluster-test', 3);
});

afterAll(async () => {
  await pool?.close();
  await rotating?.close();
  await proxy?.close();
});

const pageOf = (hold = 0, of = pool) =>
  of.cluster.run(async ({ page }) => {
    if (hold) await sleep(hold);
    return page;
  });

describe('render cluster', () => {
  it('opens every page at start, and by default hands out the page idle longest, so jobs rotate over them', async () => {
    const seen: Page[] = [];
    for (let i = 0; i < 6; i++) seen.push(await pageOf(0, rotating));
    expect(new Set(seen).size).toBe(3);
    expect(seen.slice(3)).toEqual(seen.slice(0, 3));
  });

  it('with pick most-recent hands a quiet worker its most recently used page, and a busy one all its pages', async () => {
    const first = await pageOf();
    for (let i = 0; i < 5; i++) expect(await pageOf()).toBe(first);

    const concurrent = await Promise.all([pageOf(100), pageOf(100), pageOf(100)]);
    expect(new Set<Page>(concurrent).size).toBe(3);

    // Back to one at a time: again a single page, not a rotation through the three.
    const after = await pageOf();
    for (let i = 0; i < 5; i++) expect(await pageOf()).toBe(after);
  });
});
