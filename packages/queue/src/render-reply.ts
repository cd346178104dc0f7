import type { ErrorCode, ImageMeta, RenderResultMeta } from '@render/contracts';

/**
 * How a worker answers the gateway that is waiting for a job: one pub/sub message on that gateway's own
 * channel. Pub/sub keeps nothing, so image bytes never rest in Redis; images above `INLINE_IMAGE_MAX` go
 * under a short-TTL key instead (Redis disconnects subscribers whose output buffer grows past 8–32 MB).
 *
 * Wire format: 4-byte big-endian header length, JSON header, then the raw image bytes (if inline).
 */
export const INLINE_IMAGE_MAX = 4 * 1024 * 1024;

export type { RenderResultMeta };

/** A rendered image with its metadata: what a renderer returns and what the signed-URL image cache keeps. */
export type RenderedImage = ImageMeta & { bytes: Buffer };

export type RenderReply =
  | { jobId: string; ok: true; meta: RenderResultMeta; image?: Buffer }
  | { jobId: string; ok: false; code: ErrorCode; message: string };

export const replyChannel = (prefix: string, gatewayId: string) => `${prefix}:reply:${gatewayId}`;
export const resultKey = (prefix: string, jobId: string) => `${prefix}:result:${jobId}`;

export function encodeReply(reply: RenderReply): Buffer {
  const { image, ...header } = reply as RenderReply & { image?: Buffer };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const length = Buffer.allocUnsafe(4);
  length.writeUInt32BE(json.length, 0);
  return image ? Buffer.concat([length, json, image]) : Buffer.concat([length, json]);
}

export function decodeReply(message: Buffer): RenderReply | undefined {
  if (message.length < 4) return undefined;
  const headerLength = message.readUInt32BE(0);
  if (4 + headerLength > message.length) return undefined;
  try {
    const header = JSON.parse(message.toString('utf8', 4, 4 + headerLength)) as RenderReply;
    if (header.ok && message.length > 4 + headerLength) return { ...header, image: message.subarray(4 + headerLength) };
    return header;
  } catch {
    return undefined;
  }
}
