import { crc32, deflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * A valid white `width`×`height` PNG of `bytes` bytes (at least its minimal size): what the pipeline
 * phase's worker answers instead of a render, as large as the real page's PNG so the reply, Redis and
 * HTTP move the same amount. The padding is an ancillary private chunk, which decoders skip.
 */
export function fixedPng(width: number, height: number, bytes: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(6, 9); // RGBA
  // Each row: filter byte 0, then opaque white pixels.
  const row = Buffer.alloc(1 + width * 4, 0xff);
  row[0] = 0;
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  const parts = [SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))];
  const size = parts.reduce((n, p) => n + p.length, 0);
  // A chunk costs 12 bytes beyond its data; padding goes before IEND.
  const padding = bytes - size - 12;
  if (padding >= 0) parts.splice(3, 0, chunk('bnCh', Buffer.alloc(padding, 0x2a)));
  return Buffer.concat(parts);
}
