import { crc32, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { fixedPng } from '../lib/fixed-image.ts';
import { assertPng } from '../lib/workload.ts';

/** The PNG's chunks, each checked against its CRC. */
function chunks(png: Buffer): Array<{ type: string; data: Buffer }> {
  const out: Array<{ type: string; data: Buffer }> = [];
  let at = 8;
  while (at < png.length) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    expect(png.readUInt32BE(at + 8 + length)).toBe(crc32(png.subarray(at + 4, at + 8 + length)) >>> 0);
    out.push({ type, data });
    at += 12 + length;
  }
  expect(at).toBe(png.length);
  return out;
}

describe('fixedPng', () => {
  it('is a white 800×600 PNG of exactly the size asked for', () => {
    const png = fixedPng(800, 600, 15_200);
    expect(png.length).toBe(15_200);
    assertPng(png);
    const parts = chunks(png);
    expect(parts.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'bnCh', 'IEND']);
    const pixels = inflateSync(parts[1]!.data);
    expect(pixels.length).toBe(600 * (1 + 800 * 4));
    expect(pixels[0]).toBe(0);
    expect(pixels[1]).toBe(0xff);
  });

  it('has no padding when asked for less than its minimal size', () => {
    const png = fixedPng(800, 600, 10);
    assertPng(png);
    expect(chunks(png).map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
  });
});
