import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { type EgressDecision, type LookupFn, parseHostPort, parsePort, resolveTarget } from '@render/egress-policy';
import { recordEgressRefusal } from './egress-refusals.ts';

export type EgressProxyLogger = {
  warn(obj: object, msg?: string): void;
  debug?(obj: object, msg?: string): void;
};

export type EgressProxyOptions = {
  allowlist: Set<string>;
  logger?: EgressProxyLogger;
  lookup?: LookupFn;
  connectTimeoutMs?: number;
  /** Called on every refusal: `blocked` by the policy or `unreachable` upstream. */
  onRefusal?: (kind: 'blocked' | 'unreachable') => void;
};

export type EgressProxy = {
  port: number;
  url: string;
  close(): Promise<void>;
  stats(): { allowed: number; blocked: number; unresolved: number };
};

const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

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

type Target = { host: string; port: number; path: string };

/**
 * Parses an absolute-form request target. Host/port come from WHATWG URL (which also folds
 * numeric hosts like 2130706433 to dotted form); the path is sliced from the raw string so
 * the origin sees exactly the bytes the page sent.
 */
function parseAbsoluteHttpTarget(raw: string | undefined): Target | undefined {
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
function filterHeaders(rawHeaders: string[], keep: ReadonlySet<string> = new Set()): string[] {
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

function toHeaderObject(flat: string[]): http.OutgoingHttpHeaders {
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

const CONNECT_TIMEOUT = 'connect timeout';

function blockedBody(reason: string): string {
  return `Blocked by render egress policy: ${reason}\n`;
}

function rawResponse(status: string, body: string, extra: string[] = []): string {
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

function endSocket(socket: Duplex, payload: string): void {
  if (socket.destroyed) return;
  if (socket.writable) {
    socket.end(payload);
    // A peer that never reads must not pin the socket open.
    setTimeout(() => socket.destroy(), 1_000).unref();
  } else {
    socket.destroy();
  }
}

export async function startEgressProxy(opts: EgressProxyOptions): Promise<EgressProxy> {
  const { allowlist, logger, lookup } = opts;
  const connectTimeoutMs = opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const counters = { allowed: 0, blocked: 0, unresolved: 0 };
  // Sockets handed to CONNECT/upgrade handlers are detached from the http server, so
  // server.close() would not end them; track everything we own explicitly.
  const sockets = new Set<net.Socket | Duplex>();
  const upstreamAgent = new http.Agent({ keepAlive: true, maxFreeSockets: 64 });

  const track = <T extends net.Socket | Duplex>(s: T): T => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
    return s;
  };

  async function decide(host: string, port: number): Promise<EgressDecision> {
    const decision = await resolveTarget(host, port, { allowlist, ...(lookup ? { lookup } : {}) });
    if (decision.allowed) {
      counters.allowed += 1;
    } else if (decision.cause === 'unresolved') {
      counters.unresolved += 1;
      // Not the policy's refusal: the name does not exist (or DNS is down). Said as such to the caller.
      debug({ host, port, reason: decision.reason }, 'egress name not resolved');
      recordEgressRefusal({ host, port, kind: 'unresolved', reason: decision.reason });
      opts.onRefusal?.('unreachable');
    } else {
      counters.blocked += 1;
      // Only host/port/reason: full URLs can carry tokens in the query string. The resolved addresses
      // stay in this log; the recorded reason reaches API callers and must not carry them.
      const addresses = decision.addresses ? { addresses: decision.addresses } : {};
      logger?.warn({ host, port, reason: decision.reason, ...addresses }, 'egress blocked');
      recordEgressRefusal({ host, port, kind: 'blocked', reason: decision.reason });
      opts.onRefusal?.('blocked');
    }
    return decision;
  }

  function debug(obj: object, msg: string): void {
    logger?.debug?.(obj, msg);
  }

  function sendBlocked(res: http.ServerResponse, reason: string): void {
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

  function sendPlain(res: http.ServerResponse, status: number, body: string, extra: http.OutgoingHttpHeaders = {}): void {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body), ...extra });
    res.end(body);
  }

  // Noted (and, for plain http, put in a header) so a renderer can tell "could not connect" from a site that
  // itself answers 502. Only the error code reaches callers: a Node message names the address it dialled
  // (what the host resolved to).
  function unreachable(host: string, port: number, err: Error): string {
    const cause = (err as NodeJS.ErrnoException).code ?? (err.message === CONNECT_TIMEOUT ? err.message : 'connection failed');
    recordEgressRefusal({ host, port, kind: 'unreachable', reason: cause });
    opts.onRefusal?.('unreachable');
    return cause;
  }

  /** net.connect with a connect-phase timeout; resolves null on failure. */
  function connectUpstream(target: { host: string; port: number }, address: string, family: 4 | 6): Promise<net.Socket | null> {
    const { port } = target;
    return new Promise((resolve) => {
      const upstream = track(net.connect({ host: address, port, family }));
      const timer = setTimeout(() => upstream.destroy(new Error(CONNECT_TIMEOUT)), connectTimeoutMs);
      const onError = (err: Error): void => {
        clearTimeout(timer);
        debug({ address, port, err: err.message }, 'egress upstream connect failed');
        unreachable(target.host, port, err);
        upstream.destroy();
        resolve(null);
      };
      upstream.once('error', onError);
      upstream.once('connect', () => {
        clearTimeout(timer);
        upstream.off('error', onError);
        resolve(upstream);
      });
    });
  }

  function splice(client: Duplex, upstream: net.Socket): void {
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

  async function handleRequest(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    req.on('error', () => res.destroy());
    res.on('error', () => req.destroy());
    const target = parseAbsoluteHttpTarget(req.url);
    if (!target) {
      req.resume();
      sendPlain(res, 400, 'Bad request: only absolute http:// URLs are proxied\n');
      return;
    }
    const decision = await decide(target.host, target.port);
    if (!decision.allowed) {
      // Drain so the keep-alive connection stays usable for Chromium's next request.
      req.resume();
      if (decision.cause === 'unresolved') sendPlain(res, 502, `Bad gateway: ${decision.reason}\n`, { 'X-Egress-Error': 'unresolved' });
      else sendBlocked(res, decision.reason);
      return;
    }
    if (res.destroyed || req.destroyed) return;

    const headers = filterHeaders(req.rawHeaders);
    if (!headers.some((h, i) => i % 2 === 0 && h.toLowerCase() === 'host')) {
      headers.push('Host', target.port === 80 ? target.host : `${target.host}:${target.port}`);
    }

    const options: http.RequestOptions = {
      host: decision.address,
      family: decision.family,
      port: target.port,
      method: req.method,
      path: target.path,
      headers: toHeaderObject(headers),
      setHost: false,
      agent: upstreamAgent,
    };
    // A request without a body can be sent again as it is (see `sendUpstream`).
    const replayable = req.method === 'GET' || req.method === 'HEAD';
    sendUpstream(req, res, options, target, replayable);
  }

  /**
   * Forwards one request upstream over the keep-alive agent. An idle pooled socket the server closed just as
   * it was reused fails with ECONNRESET/EPIPE before any answer: a race of keep-alive, not an unreachable
   * site, so a request without a body is sent once more on a fresh socket, as browsers do.
   */
  function sendUpstream(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    options: http.RequestOptions,
    target: { host: string; port: number },
    replayable: boolean,
  ): void {
    const upstreamReq = http.request(options);
    let connectTimer: NodeJS.Timeout | undefined;
    upstreamReq.on('socket', (socket) => {
      if (!socket.connecting) return;
      connectTimer = setTimeout(() => upstreamReq.destroy(new Error(CONNECT_TIMEOUT)), connectTimeoutMs);
      socket.once('connect', () => clearTimeout(connectTimer));
    });
    upstreamReq.on('close', () => clearTimeout(connectTimer));
    upstreamReq.on('error', (err: NodeJS.ErrnoException) => {
      debug({ host: target.host, port: target.port, err: err.message }, 'egress upstream error');
      const raced = upstreamReq.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE');
      if (raced && replayable && !res.headersSent && !res.destroyed) {
        sendUpstream(req, res, options, target, false);
        return;
      }
      req.unpipe(upstreamReq);
      req.resume();
      if (res.destroyed) return;
      if (res.headersSent) res.destroy();
      else {
        const cause = unreachable(target.host, target.port, err);
        sendPlain(res, 502, `Bad gateway: upstream unavailable (${cause})\n`, { 'X-Egress-Error': 'unreachable' });
      }
    });
    upstreamReq.on('response', (upstreamRes) => {
      upstreamRes.on('error', () => res.destroy());
      upstreamRes.on('aborted', () => res.destroy());
      if (res.destroyed) {
        upstreamRes.destroy();
        return;
      }
      res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.statusMessage, filterHeaders(upstreamRes.rawHeaders));
      upstreamRes.pipe(res);
    });
    res.on('close', () => {
      if (!res.writableFinished) upstreamReq.destroy();
    });
    if (replayable || req.readableEnded) {
      req.resume();
      upstreamReq.end();
    } else req.pipe(upstreamReq);
  }

  /**
   * The shared part of CONNECT and Upgrade: judge the target, answer refusals on the raw socket, and
   * connect to the checked address. Resolves to the upstream socket, or undefined once the client has
   * been answered (or has gone).
   */
  async function openTunnel(
    client: Duplex,
    target: { host: string; port: number } | undefined,
    badRequest: string,
  ): Promise<net.Socket | undefined> {
    track(client);
    client.on('error', () => client.destroy());
    // Hold any early bytes until the tunnel exists; pipe() resumes.
    client.pause();
    if (!target) {
      endSocket(client, rawResponse('400 Bad Request', badRequest));
      return undefined;
    }
    const decision = await decide(target.host, target.port);
    if (client.destroyed) return undefined;
    if (!decision.allowed) {
      endSocket(
        client,
        decision.cause === 'unresolved'
          ? rawResponse('502 Bad Gateway', `Bad gateway: ${decision.reason}\n`, ['X-Egress-Error: unresolved'])
          : rawResponse('403 Forbidden', blockedBody(decision.reason), ['X-Egress-Blocked: 1']),
      );
      return undefined;
    }
    const upstream = await connectUpstream(target, decision.address, decision.family);
    if (!upstream) {
      endSocket(client, rawResponse('502 Bad Gateway', 'Bad gateway: upstream unavailable\n'));
      return undefined;
    }
    if (client.destroyed) {
      upstream.destroy();
      return undefined;
    }
    return upstream;
  }

  async function handleConnect(req: http.IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    const target = req.url ? parseHostPort(req.url) : undefined;
    const upstream = await openTunnel(client, target, 'Bad request: CONNECT needs host:port\n');
    if (!upstream) return;
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    splice(client, upstream);
  }

  async function handleUpgrade(req: http.IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    const target = parseAbsoluteHttpTarget(req.url);
    const upstream = await openTunnel(client, target, 'Bad request: only absolute http:// URLs are proxied\n');
    if (!upstream || !target) return;
    // Connection/Upgrade are hop-by-hop but are exactly what asks the origin to switch.
    const headers = filterHeaders(req.rawHeaders, new Set(['upgrade']));
    headers.push('Connection', 'Upgrade');
    const lines = [`${req.method ?? 'GET'} ${target.path} HTTP/1.1`];
    for (let i = 0; i < headers.length; i += 2) lines.push(`${headers[i]}: ${headers[i + 1]}`);
    upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (head.length > 0) upstream.write(head);
    splice(client, upstream);
  }

  const server = http.createServer();
  server.on('connection', (socket: net.Socket) => {
    track(socket);
    // Backstop: the http server handles parse errors via 'clientError', but a stray socket
    // error after a handler detached must never become an uncaught exception.
    socket.on('error', () => socket.destroy());
  });
  server.on('clientError', (_err, socket: Duplex) => {
    endSocket(socket, rawResponse('400 Bad Request', 'Bad request\n'));
  });
  server.on('request', (req, res) => {
    handleRequest(req, res).catch((err: unknown) => {
      debug({ err: String(err) }, 'egress proxy request failed');
      sendPlain(res, 502, 'Bad gateway\n');
    });
  });
  server.on('connect', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    handleConnect(req, socket, head).catch(() => socket.destroy());
  });
  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    handleUpgrade(req, socket, head).catch(() => socket.destroy());
  });
  server.on('error', (err) => debug({ err: err.message }, 'egress proxy server error'));

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as net.AddressInfo;

  return {
    port: address.port,
    url: `http://127.0.0.1:${address.port}`,
    stats: () => ({ ...counters }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
        sockets.clear();
        upstreamAgent.destroy();
      }),
  };
}
