import { inflateSync } from 'node:zlib';

/**
 * Just enough PDF reading for the tests, without a PDF library: Chromium (Skia) writes each page as a plain
 * `/Type /Page` dictionary with its `/MediaBox`, and its content streams Flate-compressed.
 */
export interface PdfFacts {
  pages: number;
  /** Each page's [width, height] in points (1/72 in), in file order. */
  sizes: Array<[number, number]>;
  /** Whether any font is used (text was printed). */
  hasFont: boolean;
  /** The decompressed content streams, for looking at drawing operators. */
  streams: string[];
}

export function readPdf(bytes: Buffer): PdfFacts {
  const text = bytes.toString('latin1');
  if (!text.startsWith('%PDF-')) throw new Error('not a PDF');
  if (!/%%EOF\s*$/.test(text)) throw new Error('PDF is truncated');
  const pages = text.match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;
  const sizes = [...text.matchAll(/\/MediaBox\s*\[\s*([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s*\]/g)].map(
    (m) => [Number(m[3]) - Number(m[1]), Number(m[4]) - Number(m[2])] as [number, number],
  );
  const streams: string[] = [];
  for (const m of text.matchAll(/stream\r?\n/g)) {
    const start = (m.index ?? 0) + m[0].length;
    const end = text.indexOf('endstream', start);
    if (end < 0) continue;
    try {
      streams.push(inflateSync(bytes.subarray(start, end)).toString('latin1'));
    } catch {
      // not a Flate stream (or an image)
    }
  }
  return { pages, sizes, hasFont: /\/Type\s*\/Font\b/.test(text), streams };
}

/** Points from CSS pixels (96 per inch). */
export const pt = (px: number) => (px * 72) / 96;
