import { parseAllowlist } from '@render/egress-policy';
import { createLogger } from '@render/logger';
import type { LaunchOptions } from 'puppeteer-core';
import { BrowserManager } from '../../src/browser/browser-manager.ts';
import { chromiumLaunchOptions } from '../../src/browser/chromium-args.ts';
import { createRenderCluster, type RenderCluster, type RenderClusterOptions } from '../../src/browser/render-cluster.ts';
import { DEFAULT_FONTCONFIG_FILE } from '../../src/config.ts';
import { startEgressProxy } from '../../src/egress/egress-proxy.ts';
import type { PoolName, RendererContext } from '../../src/renderers/page/renderer.ts';
import { poolDefinitions } from '../../src/renderers/pools.ts';

export interface TestPool {
  cluster: RenderCluster;
  manager: BrowserManager;
  close(): Promise<void>;
}

/** One real Chromium behind `proxyUrl` with a pool of the given kind (one page by default), as the worker builds it. */
export async function startTestPool(
  pool: PoolName,
  proxyUrl: string,
  label: string,
  pages = 1,
  overrides: Pick<RenderClusterOptions, 'pick' | 'affinity'> & { launch?: (options: LaunchOptions) => LaunchOptions } = {},
): Promise<TestPool> {
  const logger = createLogger(label, process.env.TEST_LOG_LEVEL ?? 'silent');
  const { launch = (options) => options, ...clusterOverrides } = overrides;
  const manager = new BrowserManager(
    launch(
      chromiumLaunchOptions({
        executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell',
        sandbox: 'auto',
        proxyUrl,
        fontconfig: { file: DEFAULT_FONTCONFIG_FILE, env: process.env },
      }),
    ),
    logger,
  );
  try {
    const cluster = await createRenderCluster({
      ...poolDefinitions[pool],
      ...clusterOverrides,
      pages,
      manager,
      recycleAfter: 100,
      taskTimeoutMs: 20_000,
      logger,
    });
    return {
      cluster,
      manager,
      close: async () => {
        await cluster.close();
        await manager.close();
      },
    };
  } catch (err) {
    await manager.close();
    throw err;
  }
}

/**
 * A renderer context over one test pool per kind (generic, chart, code), behind a refuse-all egress proxy:
 * what a test calling the renderers directly needs. `close` stops the pools, then the proxy.
 */
export async function startRendererContext(label: string): Promise<{ ctx: RendererContext; proxyUrl: string; close(): Promise<void> }> {
  const proxy = await startEgressProxy({ allowlist: parseAllowlist('') });
  const names: PoolName[] = ['generic', 'chart', 'code'];
  const started = await Promise.all(names.map((name) => startTestPool(name, proxy.url, `${label}-${name}`)));
  const pools = new Map<PoolName, TestPool>(names.map((name, i) => [name, started[i]!]));
  const ctx: RendererContext = {
    pool: async (name) => pools.get(name)!.cluster,
    timeoutMs: 20_000,
    imageFetch: { proxyUrl: proxy.url, maxBytes: 1_000_000, timeoutMs: 1_000 },
  };
  return {
    ctx,
    proxyUrl: proxy.url,
    close: async () => {
      await Promise.all([...pools.values()].map((pool) => pool.close()));
      await proxy.close();
    },
  };
}
