import type http from 'node:http';
import type net from 'node:net';
import type { Duplex } from 'node:stream';
import { parsePort } from '@render/egress-policy';

/** What the egress proxy reads from and writes to the wire, apart from any one proxy's state. */

// Per RFC 9110 §7.6.1 these describe the client<->proxy hop and must not be forwarded;
// Proxy-Authorization in particular would leak proxy credentials to the origin.
const HOP_BY_HOP = new Set([
  'connection',
  'proxy-connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

export type Target = { host: string; port: number; path: string };

/**
 * Parses an absolute-form request target. Host/port come from WHATWG URL (which also folds
 * numeric hosts like 2130706433 to dotted form); the path is sliced from the raw string so
 * the origin sees exactly the bytes the page sent.
 */
export function parseAbsoluteHttpTarget(raw: string | undefined): Target | undefined {
  if (!raw || !/^http:\/\//i.test(raw)) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' || url.hostname === '') return undefined;
  const port = url.port === '' ? 80 : parsePort(url.port);
  if (port === undefined) return undefined;
  const afterScheme = raw.slice('http://'.length);
  const authorityEnd = afterScheme.search(/[/?#]/);
  let path = authorityEnd < 0 ? '/' : afterScheme.slice(authorityEnd);
  const hash = path.indexOf('#');
  if (hash >= 0) path = path.slice(0, hash);
  if (!path.startsWith('/')) path = `/${path}`;
  return { host: url.hostname, port, path };
}

function connectionTokens(rawHeaders: string[]): Set<string> {
  const tokens = new Set<string>();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]?.toLowerCase() !== 'connection') continue;
    for (const t of (rawHeaders[i + 1] ?? '').split(',')) {
      const token = t.trim().toLowerCase();
      if (token) tokens.add(token);
    }
  }
  return tokens;
}

/** Returns flat [name, value, ...] without hop-by-hop headers; `keep` re-admits some (Upgrade). */
export function filterHeaders(rawHeaders: string[], keep: ReadonlySet<string> = new Set()): string[] {
  const listed = connectionTokens(rawHeaders);
  const out: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i];
    const value = rawHeaders[i + 1];
    if (name === undefined || value === undefined) continue;
    const lower = name.toLowerCase();
    if (keep.has(lower)) {
      out.push(name, value);
      continue;
    }
    if (HOP_BY_HOP.has(lower) || listed.has(lower)) continue;
    out.push(name, value);
  }
  return out;
}

export function toHeaderObject(flat: string[]): http.OutgoingHttpHeaders {
  const headers: Record<string, string | string[]> = {};
  for (let i = 0; i < flat.length; i += 2) {
    const name = flat[i] as string;
    const value = flat[i + 1] as string;
    const existing = headers[name];
    if (existing === undefined) headers[name] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else headers[name] = [existing, value];
  }
  return headers;
}

export const CONNECT_TIMEOUT = 'connect timeout';

export function blockedBody(reason: string): string {
  return `Blocked by render egress policy: ${reason}\n`;
}

export function rawResponse(status: string, body: string, extra: string[] = []): string {
  return [
    `HTTP/1.1 ${status}`,
    'Content-Type: text/plain; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    ...extra,
    '',
    body,
  ].join('\r\n');
}

export function endSocket(socket: Duplex, payload: string): void {
  if (socket.destroyed) return;
  if (socket.writable) {
    socket.end(payload);
    // A peer that never reads must not pin the socket open.
    setTimeout(() => socket.destroy(), 1_000).unref();
  } else {
    socket.destroy();
  }
}

export function sendBlocked(res: http.ServerResponse, reason: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = blockedBody(reason);
  res.writeHead(403, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'X-Egress-Blocked': '1',
  });
  res.end(body);
}

export function sendPlain(res: http.ServerResponse, status: number, body: string, extra: http.OutgoingHttpHeaders = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body), ...extra });
  res.end(body);
}

/** Joins a client and its upstream both ways; either side ending or failing ends both. */
export function splice(client: Duplex, upstream: net.Socket): void {
  const teardown = (): void => {
    client.destroy();
    upstream.destroy();
  };
  client.on('error', teardown);
  upstream.on('error', teardown);
  client.on('close', teardown);
  upstream.on('close', teardown);
  client.pipe(upstream);
  upstream.pipe(client);
}
