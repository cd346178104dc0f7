import { type RenderWarning, ScreenshotLimits } from '@render/contracts';
import type { CDPSession, Page } from 'puppeteer-core';
import sharp from 'sharp';
import { imageSize } from './image-size.ts';
import { failure } from './page-navigation.ts';

/**
 * Full-page captures taller than one GPU texture. Chromium draws a capture into a single texture of at
 * most 16,384 device pixels a side; past that the image repeats or goes blank. A taller page is captured
 * in tiles of at most `TILE_DEVICE_PX` device pixels (each a clip with captureBeyondViewport, as the
 * single capture is: the layout viewport stays the emulated one, so 100vh sections keep the viewport's
 * height and fixed headers appear once, at the top, as in a short full page) and stacked by sharp (libvips) into one image, in the format the
 * capture would have had. libvips decodes the tile PNGs and encodes the result strip by strip, so the
 * stitched image never sits in memory uncompressed; what does is the tiles' PNG bytes.
 */

export interface FullPageLimits {
  /** Tallest full page in CSS pixels (worker config SCREENSHOT_MAX_HEIGHT). */
  maxHeight: number;
  /** Most device pixels of a full page, width × height × scale² (worker config SCREENSHOT_MAX_PIXELS). */
  maxPixels: number;
  /** Set when the job asked for a lower pixel budget than the worker's (the gateway's cap for anonymous callers). */
  jobPixelCap?: boolean;
}

/** The worker's limits, with the job's own pixel budget when it is lower. */
export function jobFullPageLimits(limits: FullPageLimits, jobMaxPixels: number | undefined): FullPageLimits {
  return jobMaxPixels !== undefined && jobMaxPixels < limits.maxPixels ? { ...limits, maxPixels: jobMaxPixels, jobPixelCap: true } : limits;
}

export const DefaultFullPageLimits: FullPageLimits = {
  maxHeight: ScreenshotLimits.fullPageMaxHeight,
  maxPixels: ScreenshotLimits.fullPageMaxPixels,
};

/** What the capture is encoded as before any finishing (the browser's own formats). */
export type TileFormat = 'png' | 'jpeg' | 'webp';

/**
 * Tallest image each format can hold, in pixels: WebP stores 14-bit sizes, JPEG 16-bit; AVIF (libheif)
 * refuses sides over 16,384. PNG has no practical limit here.
 */
const FormatMaxHeight: Record<string, number> = { webp: 16_383, avif: 16_384, jpeg: 65_535, png: Number.MAX_SAFE_INTEGER };

/** Each tile's height in device pixels: half a texture, so no tile is near the limit whatever the rounding. */
export const TILE_DEVICE_PX = 8_192;

export interface FullPagePlan {
  /** Height to capture in CSS pixels. */
  height: number;
  /** The page's own height (CSS px), when it is taller than what is captured. */
  cutFrom?: number;
  /** Which limit cut it. */
  cutBy?: 'height' | 'pixels' | 'format';
}

/**
 * How much of a page of `contentHeight` CSS px to capture at `width` CSS px and `scale`: the whole page (at
 * least the viewport) up to the configured height, the pixel budget and what the output format can hold.
 */
export function planFullPage(
  contentHeight: number,
  viewport: { width: number; height: number; scale: number },
  format: string,
  limits: FullPageLimits,
): FullPagePlan {
  const { width, scale } = viewport;
  const wanted = Math.max(viewport.height, Math.ceil(contentHeight));
  const caps: [NonNullable<FullPagePlan['cutBy']>, number][] = [
    ['height', limits.maxHeight],
    ['pixels', Math.floor(limits.maxPixels / (width * scale * scale))],
    ['format', Math.floor((FormatMaxHeight[format] ?? Number.MAX_SAFE_INTEGER) / scale)],
  ];
  const [cutBy, cap] = caps.reduce((low, next) => (next[1] < low[1] ? next : low));
  if (cap < 1) throw failure(`the page is too wide for the ${limits.maxPixels.toLocaleString('en-US')}-pixel budget at scale ${scale}`);
  return wanted <= cap ? { height: wanted } : { height: cap, cutFrom: wanted, cutBy };
}

/** puppeteer's own session of the page, whose emulation (viewport, scale) the captures must share. */
const pageSession = (page: Page) => (page as unknown as { _client(): CDPSession })._client();

/** Whether a capture of this height needs tiles (more device pixels than one texture). */
export const needsTiles = (heightCss: number, scale: number) => Math.ceil(heightCss * scale) > ScreenshotLimits.maxCaptureDevicePixels;

export interface TiledCapture {
  bytes: Buffer;
  width: number;
  height: number;
}

/**
 * Captures `height` CSS px of the page at `width` CSS px in tiles and stitches them into one `format`
 * image. Tiles go through `session`, which must be puppeteer's own session of the page: emulation is per
 * DevTools session, and the device metrics (the scale) are set on that one. No puppeteer mutex is taken
 * (see page-ops' `screenshot`). `transparent`: the default white background is off.
 */
export async function captureTiled(
  session: CDPSession,
  options: { width: number; height: number; scale: number; format: TileFormat; quality: number | undefined; transparent: boolean },
): Promise<TiledCapture> {
  const { width, height, scale } = options;
  // Whole CSS pixels per tile, so each tile starts where the last ended; at a fractional scale a tile's
  // device height is Chromium's rounding, and the stitched height the sum of the tiles'.
  const tileCss = Math.max(1, Math.floor(TILE_DEVICE_PX / scale));
  const transparent = options.transparent && options.format !== 'jpeg';
  if (transparent) await session.send('Emulation.setDefaultBackgroundColorOverride', { color: { r: 0, g: 0, b: 0, a: 0 } });
  const tiles: Buffer[] = [];
  try {
    for (let y = 0; y < height; y += tileCss) {
      const { data } = await session.send('Page.captureScreenshot', {
        format: 'png',
        clip: { x: 0, y, width, height: Math.min(tileCss, height - y), scale: 1 },
        captureBeyondViewport: true,
        optimizeForSpeed: true,
      });
      tiles.push(Buffer.from(data, 'base64'));
    }
  } finally {
    if (transparent) await session.send('Emulation.setDefaultBackgroundColorOverride').catch(() => undefined);
  }
  return stitch(tiles, options.format, options.quality);
}

/** PNG tiles stacked top to bottom into one image of `format`. */
export async function stitch(tiles: readonly Buffer[], format: TileFormat, quality: number | undefined): Promise<TiledCapture> {
  const sizes = tiles.map((tile) => imageSize(tile));
  if (!tiles.length || sizes.some((size) => !size)) throw failure('a tile of the full page could not be read');
  const width = Math.min(...sizes.map((size) => size!.width));
  const height = sizes.reduce((sum, size) => sum + size!.height, 0);
  // libvips' arrayjoin gives every cell the largest tile's size (content at the top left), so the padding
  // under the shorter last tile is cut off again.
  const joined = sharp([...tiles], { join: { across: 1 }, limitInputPixels: false }).extract({ left: 0, top: 0, width, height });
  const encoded =
    format === 'png'
      ? // Level 3 without adaptive filtering: several times faster than sharp's default on a tall page, a few % larger.
        joined.png({ compressionLevel: 3, adaptiveFiltering: false })
      : format === 'jpeg'
        ? joined.flatten({ background: '#ffffff' }).jpeg({ quality: quality ?? 80 })
        : joined.webp({ quality: quality ?? 80 });
  try {
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    return { bytes: data, width: info.width, height: info.height };
  } catch (err) {
    throw failure(`the ${width}×${height} full page could not be encoded as ${format}`, false, err);
  }
}

/** The warning a cut page carries (the answer's `warnings`). */
export function pageCutWarning(plan: FullPagePlan, scale: number, limits?: FullPageLimits): RenderWarning | undefined {
  if (plan.cutFrom === undefined) return undefined;
  const px = (n: number) => n.toLocaleString('en-US');
  const pixelBudget = limits?.jobPixelCap
    ? `the ${px(limits.maxPixels)}-pixel size allowed without an API key (sign up for a free key to capture more)`
    : 'the pixel budget (width × height × scale²) of this server';
  const why =
    plan.cutBy === 'height'
      ? 'the tallest full page this server captures'
      : plan.cutBy === 'pixels'
        ? pixelBudget
        : `the tallest image the format holds (${px(Math.round(plan.height * scale))} px)`;
  return {
    code: 'PAGE_CUT',
    message: `The page is ${px(plan.cutFrom)} CSS px tall; it was cut at ${px(plan.height)} CSS px, ${why}`,
  };
}

export type FullPageResult =
  | { clip: { x: number; y: number; width: number; height: number }; image?: undefined; warning?: RenderWarning }
  | { clip?: undefined; image: TiledCapture; warning?: RenderWarning };

/**
 * A full page: the clip for one ordinary capture when it fits a texture, else the stitched tiles; with a
 * PAGE_CUT warning when the page was cut.
 */
export async function fullPageCapture(
  page: Page,
  session: CDPSession,
  options: {
    viewport: { width: number; height: number; scale: number };
    /** The format asked for (its height limit applies) and the one captured (see `planEncoding`). */
    format: string;
    capture: TileFormat;
    quality: number | undefined;
    transparent: boolean;
    limits: FullPageLimits;
  },
): Promise<FullPageResult> {
  const { viewport } = options;
  const { cssContentSize } = await session.send('Page.getLayoutMetrics');
  const plan = planFullPage(cssContentSize.height, viewport, options.format, options.limits);
  const warning = pageCutWarning(plan, viewport.scale, options.limits);
  if (!needsTiles(plan.height, viewport.scale)) {
    return { clip: { x: 0, y: 0, width: viewport.width, height: plan.height }, ...(warning ? { warning } : {}) };
  }
  const image = await captureTiled(pageSession(page), {
    width: viewport.width,
    height: plan.height,
    scale: viewport.scale,
    format: options.capture,
    quality: options.quality,
    transparent: options.transparent,
  });
  return { image, ...(warning ? { warning } : {}) };
}
