// Reads the files out of a batch's archive (`GET /api/batches/{id}/archive`), so render_batch can hand each
// image over as MCP content. Only what the gateway's archive holds: stored or deflated entries, no zip64,
// no encryption. Web Crypto's sibling DecompressionStream inflates, so the package keeps to web APIs (the
// SDK compiles it into its bundles).

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
/** End-of-central-directory record without its comment; the comment may be up to 65,535 bytes. */
const EOCD_SIZE = 22;

const STORED = 0;
const DEFLATED = 8;

async function inflateRaw(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Each file of a zip, by name. Throws on anything but a well-formed archive of stored or deflated files. */
export async function zipEntries(zip: Uint8Array): Promise<Map<string, Uint8Array>> {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let eocd = -1;
  for (let at = zip.length - EOCD_SIZE; at >= Math.max(0, zip.length - EOCD_SIZE - 0xffff); at--) {
    if (view.getUint32(at, true) === EOCD_SIGNATURE) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip archive (no end of central directory)');
  const count = view.getUint16(eocd + 10, true);
  let at = view.getUint32(eocd + 16, true);
  const names = new TextDecoder();
  const files = new Map<string, Uint8Array>();
  for (let i = 0; i < count; i++) {
    if (view.getUint32(at, true) !== CENTRAL_SIGNATURE) throw new Error('damaged zip archive (central directory)');
    const method = view.getUint16(at + 10, true);
    const compressedSize = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const localAt = view.getUint32(at + 42, true);
    const name = names.decode(zip.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extraLength + commentLength;
    // The sizes are the central directory's: the local header's may be zero when a data descriptor follows.
    if (view.getUint32(localAt, true) !== LOCAL_SIGNATURE) throw new Error(`damaged zip archive (${name})`);
    const dataAt = localAt + 30 + view.getUint16(localAt + 26, true) + view.getUint16(localAt + 28, true);
    const data = zip.subarray(dataAt, dataAt + compressedSize);
    if (method === STORED) files.set(name, data);
    else if (method === DEFLATED) files.set(name, await inflateRaw(data));
    else throw new Error(`zip entry ${name} uses compression method ${method}`);
  }
  return files;
}
