// How a file the API made travels in a tool's answer, shared by the single renders (server.ts) and the
// batches (render-batch.ts).
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** What MCP clients show as images; anything else is handed over as an embedded file. */
const IMAGE_CONTENT_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);

export type ContentBlock = CallToolResult['content'][number];

export const base64ToBytes = (base64: string): Uint8Array => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  // In slices: String.fromCharCode takes its arguments on the stack.
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary);
}

/**
 * One file as MCP content: PNG, JPEG, WebP and GIF as image content; SVG and text (markdown, HTML, plain) as
 * a text resource a model can read and edit; anything else (PDF, AVIF, video) as an embedded blob under `uri`.
 */
export function fileContent(uri: string, mimeType: string, base64: string): ContentBlock {
  const type = mimeType.split(';')[0]?.trim() ?? mimeType;
  if (IMAGE_CONTENT_TYPES.has(type)) return { type: 'image', data: base64, mimeType: type };
  if (type === 'image/svg+xml' || type.startsWith('text/'))
    return { type: 'resource', resource: { uri, mimeType: type, text: new TextDecoder().decode(base64ToBytes(base64)) } };
  return { type: 'resource', resource: { uri, mimeType: type, blob: base64 } };
}
