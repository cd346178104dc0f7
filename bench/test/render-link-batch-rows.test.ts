import { createHash, createHmac } from 'node:crypto';
import { renderLinkSigningString } from '@render/contracts/signed-render-link';
import { describe, expect, it } from 'vitest';
import { batchResults } from '../lib/batch-run.ts';
import { FORMAT_WORKLOADS, renderLinkPaths, type WorkloadContext } from '../lib/formats.ts';
import { ErrorTally } from '../lib/stats.ts';

const API_KEY = 'rk_bench-test-key';
const context: WorkloadContext = { pageOrigin: 'http://127.0.0.1:1', template: { templateId: 't', apiKey: API_KEY } };
const workload = (cache: 'HIT' | 'MISS') => FORMAT_WORKLOADS.find((w) => w.link?.cache === cache)!;

/** The link's parameters, and whether its sig is the HMAC of the signing string under the API key (checked with node:crypto). */
function readLink(path: string) {
  const url = new URL(path, 'http://x.test');
  const pairs = [...url.searchParams].filter(([name]) => name !== 'sig');
  const expected = createHmac('sha256', API_KEY).update(renderLinkSigningString('html', pairs)).digest('hex');
  return { url, signed: url.searchParams.get('sig') === expected };
}

describe('render link rows', () => {
  it('a miss row requests links of their own, differing by ttl only, each signed with the API key', async () => {
    const paths = await renderLinkPaths(workload('MISS'), context, 6);
    expect(new Set(paths).size).toBe(6);
    for (const path of paths) {
      const { url, signed } = readLink(path);
      expect(url.pathname).toBe('/api/render/html');
      expect(signed).toBe(true);
      expect(url.searchParams.get('key')).toBe(createHash('sha256').update(API_KEY).digest('hex'));
      expect(url.searchParams.get('html')).toContain('<');
      expect([url.searchParams.get('width'), url.searchParams.get('height')]).toEqual(['800', '600']);
    }
    expect(paths.map((p) => new URL(p, 'http://x.test').searchParams.get('ttl'))).toEqual(['3600', '3601', '3602', '3603', '3604', '3605']);
  });

  it('a hit row requests one signed link every time', async () => {
    const paths = await renderLinkPaths(workload('HIT'), context, 4);
    expect(paths).toHaveLength(4);
    expect(new Set(paths).size).toBe(1);
    expect(readLink(paths[0]!).signed).toBe(true);
  });

  it('refuses to make a link without an API key', async () => {
    await expect(renderLinkPaths(workload('MISS'), { pageOrigin: 'http://127.0.0.1:1' }, 1)).rejects.toThrow(/API key/);
  });
});

describe('batch rows', () => {
  it('times the 202 and the end of each batch, counts items per second on the end row, and a failed batch once', () => {
    const errors = new ErrorTally();
    errors.add(new Error('batch: 1 of 10 items failed'));
    const { accepted, done } = batchResults({
      times: [
        { acceptedMs: 5, doneMs: 300 },
        { acceptedMs: 7, doneMs: 500 },
      ],
      items: 10,
      elapsedMs: 1000,
      errors,
    });
    expect([accepted.latency.n, accepted.latency.p95, accepted.rendersPerSec]).toEqual([2, 7, 2]);
    expect([done.latency.n, done.latency.p50, done.latency.p95, done.rendersPerSec]).toEqual([2, 300, 500, 20]);
    expect([accepted.errors.total, done.errors.total]).toEqual([0, 1]);
  });
});
