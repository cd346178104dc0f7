import { MimeTypes, type RasterFormat } from '@render/contracts';
import sharp, { type Sharp } from 'sharp';
import { RenderError } from './render-error.ts';
import type { RenderedImage } from './renderer.ts';

// Every image is encoded once and never read again: libvips' operation cache would only hold memory.
sharp.cache(false);

/** What Chromium encodes itself, in a capture or from a page's canvas. */
export type CaptureFormat = 'png' | 'jpeg' | 'webp';

/**
 * How a raster image is made: what the browser is asked for, and what the worker does with it. Chromium
 * encodes PNG, JPEG and WebP itself (cheapest: no second decode). AVIF it cannot encode, so the browser
 * gives a PNG (lossless, alpha kept) that sharp encodes; an optimised PNG is Chromium's PNG re-encoded.
 */
export interface ImageEncoding {
  format: RasterFormat;
  mimeType: string;
  /** What to ask the browser (a capture's `type`, a canvas's export format). */
  capture: CaptureFormat;
  /** The quality to hand the browser: set only when the browser makes the final lossy image itself. */
  captureQuality: number | undefined;
  quality: number;
  optimize: boolean;
}

/**
 * AVIF effort (0–9). Measured on an 800×600 HTML render (quality 80, on a busy 2-core machine): effort 2
 * ~120 ms and 30.7 KB; effort 4 (sharp's default) ~1.4 s for 30.0 KB; effort 0 ~45 ms but 54 KB. 2 buys
 * nearly all of the compression for a fraction of the time.
 */
const AVIF_EFFORT = 2;
/** libheif refuses larger sides ("Processed image is too large for the HEIF format"). */
export const AVIF_MAX_SIDE = 16_384;

/**
 * The plan for a raster job, made before a page is taken, so a job the worker cannot encode fails without
 * touching the browser.
 */
export function planEncoding(format: RasterFormat, options: { quality: number; optimize?: boolean }): ImageEncoding {
  if (format === 'avif' && !sharp.format.heif?.output?.buffer) {
    throw new RenderError('Failed to generate image: AVIF output is not available on this server', false);
  }
  const capture: CaptureFormat = format === 'avif' ? 'png' : format;
  const lossyInBrowser = capture === 'jpeg' || capture === 'webp';
  return {
    format,
    mimeType: MimeTypes[format],
    capture,
    captureQuality: lossyInBrowser ? options.quality : undefined,
    quality: options.quality,
    optimize: format === 'png' && options.optimize === true,
  };
}

/**
 * A rendered image finished as its plan asks (none: a PDF or SVG, already final). Renderers call this after
 * their page is back in the pool, so encoding (AVIF: tens of ms, on libvips' threads) never holds a page.
 */
export async function finishRendered(image: RenderedImage, plan: ImageEncoding | undefined): Promise<RenderedImage> {
  if (!plan) return image;
  return { ...image, bytes: await finishImage(image.bytes, plan), format: plan.format, mimeType: plan.mimeType };
}

/** The browser's image as the plan asks: unchanged when Chromium made the final image, else encoded here. */
export async function finishImage(captured: Buffer, plan: ImageEncoding): Promise<Buffer> {
  if (plan.format === 'avif') {
    assertAvifSize(captured);
    try {
      return await sharp(captured).avif({ quality: plan.quality, effort: AVIF_EFFORT }).toBuffer();
    } catch (err) {
      throw new RenderError('Failed to generate image: the AVIF image could not be encoded', false, { cause: err });
    }
  }
  if (plan.optimize) return optimizePng(captured);
  return captured;
}

/** A clear 422 for an image a format cannot hold (a very tall full-page capture), instead of an encoder error. */
function assertAvifSize(png: Buffer): void {
  const size = pngSize(png);
  if (!size || (size.width <= AVIF_MAX_SIDE && size.height <= AVIF_MAX_SIDE)) return;
  throw new RenderError(
    `Failed to generate image: AVIF images are at most ${AVIF_MAX_SIDE.toLocaleString('en-US')} pixels on a side and this one is ` +
      `${size.width}×${size.height}; use png or jpeg, or capture less`,
    false,
  );
}

const pngSize = (bytes: Buffer) =>
  bytes.length >= 24 && bytes.readUInt32BE(0) === 0x89504e47 && bytes.toString('ascii', 12, 16) === 'IHDR'
    ? { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) }
    : undefined;

/**
 * Lossless PNG optimisation: the same pixels in fewer bytes. Candidates are Chromium's own PNG, zlib level 9
 * with and without adaptive filtering (which wins depends on the image), without the alpha channel when
 * every pixel is opaque, and a palette PNG when the image has at most 256 colours. libimagequant builds
 * that palette, and it may merge colours even then, so the palette image is decoded and compared pixel
 * for pixel and kept only when identical. The smallest candidate wins.
 */
export async function optimizePng(png: Buffer): Promise<Buffer> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  const { opaque, colours } = pixelStats(data);
  const source = () => {
    const image = sharp(data, { raw: { width, height, channels: 4 } });
    return opaque ? image.removeAlpha() : image;
  };
  const truecolour = [true, false].map((adaptiveFiltering) =>
    source().png({ compressionLevel: 9, adaptiveFiltering, palette: false }).toBuffer(),
  );
  const palette = colours <= 256 ? exactPalette(source(), data, Math.max(2, colours)) : Promise.resolve(undefined);
  const candidates = [png, ...(await Promise.all(truecolour)), await palette].filter((b): b is Buffer => b !== undefined);
  return candidates.reduce((best, candidate) => (candidate.length < best.length ? candidate : best));
}

async function exactPalette(image: Sharp, rgba: Buffer, colours: number): Promise<Buffer | undefined> {
  const encoded = await image.png({ palette: true, colours, dither: 0, quality: 100, effort: 10, compressionLevel: 9 }).toBuffer();
  const decoded = await sharp(encoded).ensureAlpha().raw().toBuffer();
  return decoded.equals(rgba) ? encoded : undefined;
}

/** Whether every pixel is opaque, and the number of distinct RGBA colours (counted up to 257: past 256 no palette fits). */
function pixelStats(rgba: Buffer): { opaque: boolean; colours: number } {
  const aligned = rgba.byteOffset % 4 === 0 ? rgba : Buffer.from(rgba);
  const pixels = new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.length >> 2);
  const seen = new Set<number>();
  let opaque = true;
  for (let i = 0; i < pixels.length; i++) {
    const pixel = pixels[i]!;
    if (opaque && rgba[i * 4 + 3] !== 255) opaque = false;
    if (seen.size <= 256) seen.add(pixel);
    else if (!opaque) break;
  }
  return { opaque, colours: seen.size };
}
