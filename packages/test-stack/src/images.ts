import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface Decoded {
  width: number;
  height: number;
  pixel(x: number, y: number): [number, number, number, number];
}

/** An image from its RGBA bytes, row by row (what both decoders give). */
const rgbaImage = ({ width, height, data }: { width: number; height: number; data: Uint8Array }): Decoded => ({
  width,
  height,
  pixel: (x, y) => {
    const i = (width * y + x) * 4;
    return [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!];
  },
});

export const decodePng = (bytes: Buffer): Decoded => rgbaImage(PNG.sync.read(bytes));

export const decodeJpeg = (bytes: Buffer): Decoded => rgbaImage(jpeg.decode(bytes, { useTArray: true }));

/** Width and height from a WebP's first image chunk (lossy VP8 or lossless VP8L). */
export function webpSize(bytes: Buffer): { width: number; height: number } {
  if (bytes.toString('ascii', 0, 4) !== 'RIFF' || bytes.toString('ascii', 8, 12) !== 'WEBP') throw new Error('not a WebP');
  const chunk = bytes.toString('ascii', 12, 16);
  if (chunk === 'VP8 ') return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L') {
    const b = bytes.readUInt32LE(21);
    return { width: (b & 0x3fff) + 1, height: ((b >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
  throw new Error(`unknown WebP chunk ${chunk}`);
}

/** Close enough for anti-aliased, compressed output. */
export const near = (actual: number[], expected: number[], tolerance = 12) =>
  expected.every((v, i) => Math.abs((actual[i] ?? -999) - v) <= tolerance);

/**
 * Share of the pixels sampled every `step` pixels each way that are close to `rgba`: robust to where exactly
 * a chart library puts its bars.
 */
export function colourShare(img: Decoded, rgba: number[], step: number, tolerance = 12): number {
  let hits = 0;
  let total = 0;
  for (let y = 0; y < img.height; y += step) {
    for (let x = 0; x < img.width; x += step) {
      total += 1;
      if (near(img.pixel(x, y), rgba, tolerance)) hits += 1;
    }
  }
  return hits / total;
}
