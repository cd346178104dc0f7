export const WIDTH = 800;
export const HEIGHT = 600;

/**
 * A red box and a heading: no scripts, fonts or subresources, so the worker takes its fastest path
 * (JavaScript off, no font wait) and the numbers measure the pipeline rather than the content.
 */
export const HTML =
  '<!doctype html><html><head><meta charset="utf-8"><style>' +
  'body{margin:0;padding:24px;font-family:sans-serif;background:#fff}' +
  '.box{width:240px;height:160px;background:#e11d48;border-radius:8px}' +
  'h1{margin:16px 0 0;font-size:40px;color:#111}' +
  '</style></head><body><div class="box"></div><h1>Render bench</h1></body></html>';

export const REQUEST_BODY = Buffer.from(JSON.stringify({ html: HTML, width: WIDTH, height: HEIGHT, format: 'png' }));

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG's size from its header (IHDR is always the first chunk); undefined when it is not a PNG. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < 24 || !buf.subarray(0, 8).equals(PNG_SIGNATURE)) return undefined;
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

/** Throws unless `bytes` is a PNG of the requested size. */
export function assertPng(bytes: Uint8Array, expected: { width: number; height: number } = { width: WIDTH, height: HEIGHT }): void {
  const size = pngSize(bytes);
  if (!size) {
    const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    throw new Error(`not a PNG (${buf.length} bytes, starts ${buf.subarray(0, 8).toString('hex')})`);
  }
  if (size.width !== expected.width || size.height !== expected.height) {
    throw new Error(`PNG is ${size.width}×${size.height}, expected ${expected.width}×${expected.height}`);
  }
}
