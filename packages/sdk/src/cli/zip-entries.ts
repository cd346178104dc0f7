import { inflateRawSync } from 'node:zlib';

/**
 * The files of a zip as the API's batch archive makes them (stored or deflated entries, no ZIP64, no
 * encryption), read through its central directory: enough to put a server batch's images back under the
 * names its tasks asked for. Anything else is an error saying so, never a wrong file.
 */
export function zipEntries(zip: Uint8Array): Map<string, Uint8Array> {
  const buf = Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength);
  // The end-of-central-directory record: the last signature within its 22 bytes + a comment of up to 64 KiB.
  let end = -1;
  for (let at = buf.length - 22; at >= Math.max(0, buf.length - 22 - 0xffff); at -= 1) {
    if (buf.readUInt32LE(at) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new Error('not a zip archive (no end of central directory)');
  const count = buf.readUInt16LE(end + 10);
  let at = buf.readUInt32LE(end + 16);
  const files = new Map<string, Uint8Array>();
  for (let i = 0; i < count; i += 1) {
    if (buf.readUInt32LE(at) !== 0x02014b50) throw new Error('zip archive: broken central directory');
    const method = buf.readUInt16LE(at + 10);
    const compressed = buf.readUInt32LE(at + 20);
    const size = buf.readUInt32LE(at + 24);
    const nameLength = buf.readUInt16LE(at + 28);
    const skip = nameLength + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
    const local = buf.readUInt32LE(at + 42);
    const name = buf.toString('utf8', at + 46, at + 46 + nameLength);
    if (buf.readUInt32LE(local) !== 0x04034b50) throw new Error(`zip archive: no local header for ${name}`);
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const data = buf.subarray(start, start + compressed);
    const bytes = method === 0 ? data : method === 8 ? inflateRawSync(data) : null;
    if (!bytes || bytes.length !== size) throw new Error(`zip archive: cannot read ${name} (method ${method})`);
    files.set(name, new Uint8Array(bytes));
    at += 46 + skip;
  }
  return files;
}
