import { createLogger } from '@render/logger';
import { BrowserManager } from '../../src/browser/browser-manager.ts';
import { chromiumLaunchOptions } from '../../src/browser/chromium-args.ts';
import { poolDefinitions } from '../../src/browser/pools.ts';
import { createRenderCluster, type RenderCluster, type RenderClusterOptions } from '../../src/browser/render-cluster.ts';
import type { PoolName } from '../../src/renderers/renderer.ts';

export interface TestPool {
  cluster: RenderCluster;
  close(): Promise<void>;
}

/** One real Chromium behind `proxyUrl` with a pool of the given kind (one page by default), as the worker builds it. */
export async function startTestPool(
  pool: PoolName,
  proxyUrl: string,
  label: string,
  pages = 1,
  overrides: Pick<RenderClusterOptions, 'pick'> = {},
): Promise<TestPool> {
  const logger = createLogger(label, process.env.TEST_LOG_LEVEL ?? 'silent');
  const manager = new BrowserManager(
    chromiumLaunchOptions({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell', sandbox: 'auto', proxyUrl }),
    logger,
  );
  try {
    const cluster = await createRenderCluster({
      ...poolDefinitions[pool],
      ...overrides,
      pages,
      manager,
      recycleAfter: 100,
      taskTimeoutMs: 20_000,
      logger,
    });
    return {
      cluster,
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
