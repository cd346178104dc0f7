import type { Logger } from '@render/logger';
import type { RenderedImage } from '@render/queue';
import type { RenderCluster } from '../../browser/render-cluster.ts';

/** The image metadata is defined once, in @render/contracts (ImageMeta); the worker adds the bytes. */
export type { RenderedImage };

/**
 * Page pools a renderer can ask for; each is created on first use, over the worker's one browser.
 * - generic: warm blank pages (HTML, SVG)
 * - code: warm pages with the code font loaded
 * - chart: warm pages with the chart libraries already loaded
 * - screenshot: a fresh incognito context per job (live web pages)
 */
export type PoolName = 'generic' | 'chart' | 'quickchart' | 'code' | 'screenshot';

/** How the worker fetches content itself (SVG image variables): only through its egress proxy, within these limits. */
export interface ImageFetchSettings {
  proxyUrl: string;
  maxBytes: number;
  /** All of a job's images together: 20 images at the per-image cap would be ~180 MB of base64 on its way to Chromium. */
  maxTotalBytes?: number;
  /** Per image; a job's remaining budget can shorten it. */
  timeoutMs: number;
}

export interface RendererContext {
  pool(name: PoolName): Promise<RenderCluster>;
  /** Budget for the whole render, enforced with `withDeadline`. */
  timeoutMs: number;
  imageFetch: ImageFetchSettings;
  /**
   * An opaque id of the job's caller (API key account or anonymous address, hashed by the gateway): the
   * screenshot pool keeps a caller's wiped context for its next job (page-pool-concurrency.ts). Per job.
   */
  caller?: string;
  /** The worker's logger: renderers log where a job's time went at debug level (LOG_LEVEL=debug). */
  logger?: Pick<Logger, 'debug' | 'isLevelEnabled'>;
}

/**
 * A format's renderer: payload already validated against its job schema. A format that needs settings of
 * its own (the screenshot's limits and lists) widens the context with them (`C`), in its own folder.
 */
export type Renderer<P, C extends RendererContext = RendererContext> = (payload: P, ctx: C) => Promise<RenderedImage>;
