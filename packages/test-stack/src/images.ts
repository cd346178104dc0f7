import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface Decoded {
  width: number;
  height: number;
  pixel(x: number, y: number): [number, number, number, number];
}

export function decodePng(bytes: Buffer): Decoded {
  const png = PNG.sync.read(bytes);
  return {
    width: png.width,
    height: png.height,
    pixel: (x, y) => {
      const i = (png.width * y + x) * 4;
      return [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!, png.data[i + 3]!];
    },
  };
}

export function decodeJpeg(bytes: Buffer): Decoded {
  const img = jpeg.decode(bytes, { useTArray: true });
  return {
    width: img.width,
    height: img.height,
    pixel: (x, y) => {
      const i = (img.width * y + x) * 4;
      return [img.data[i]!, img.data[i + 1]!, img.data[i + 2]!, img.data[i + 3]!];
    },
  };
}

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
