import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { type EgressDecision, type LookupFn, parseHostPort, resolveTarget } from '@render/egress-policy';
import { recordEgressRefusal } from './egress-refusals.ts';
import {
  blockedBody,
  CONNECT_TIMEOUT,
  endSocket,
  filterHeaders,
  parseAbsoluteHttpTarget,
  rawResponse,
  sendBlocked,
  sendPlain,
  splice,
  toHeaderObject,
} from './egress-wire.ts';

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

/**
 * One proxy's state and its handlers: the policy's decisions and their counts, the sockets it owns, the
 * keep-alive pool to origins.
 */
class EgressProxyHandlers {
  readonly counters = { allowed: 0, blocked: 0, unresolved: 0 };
  // Sockets handed to CONNECT/upgrade handlers are detached from the http server, so
  // server.close() would not end them; track everything we own explicitly.
  readonly sockets = new Set<net.Socket | Duplex>();
  readonly upstreamAgent = new http.Agent({ keepAlive: true, maxFreeSockets: 64 });
  private readonly connectTimeoutMs: number;

  constructor(private readonly opts: EgressProxyOptions) {
    this.connectTimeoutMs = opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  }

  track<T extends net.Socket | Duplex>(s: T): T {
    this.sockets.add(s);
    s.once('close', () => this.sockets.delete(s));
    return s;
  }

  private async decide(host: string, port: number): Promise<EgressDecision> {
    const decision = await resolveTarget(host, port, {
      allowlist: this.opts.allowlist,
      ...(this.opts.lookup ? { lookup: this.opts.lookup } : {}),
    });
    if (decision.allowed) {
      this.counters.allowed += 1;
    } else if (decision.cause === 'unresolved') {
      this.counters.unresolved += 1;
      // Not the policy's refusal: the name does not exist (or DNS is down). Said as such to the caller.
      this.debug({ host, port, reason: decision.reason }, 'egress name not resolved');
      recordEgressRefusal({ host, port, kind: 'unresolved', reason: decision.reason });
      this.opts.onRefusal?.('unreachable');
    } else {
      this.counters.blocked += 1;
      // Only host/port/reason: full URLs can carry tokens in the query string. The resolved addresses
      // stay in this log; the recorded reason reaches API callers and must not carry them.
      const addresses = decision.addresses ? { addresses: decision.addresses } : {};
      this.opts.logger?.warn({ host, port, reason: decision.reason, ...addresses }, 'egress blocked');
      recordEgressRefusal({ host, port, kind: 'blocked', reason: decision.reason });
      this.opts.onRefusal?.('blocked');
    }
    return decision;
  }

  debug(obj: object, msg: string): void {
    this.opts.logger?.debug?.(obj, msg);
  }

  // Noted (and, for plain http, put in a header) so a renderer can tell "could not connect" from a site that
  // itself answers 502. Only the error code reaches callers: a Node message names the address it dialled
  // (what the host resolved to).
  private unreachable(host: string, port: number, err: Error): string {
    const cause = (err as NodeJS.ErrnoException).code ?? (err.message === CONNECT_TIMEOUT ? err.message : 'connection failed');
    recordEgressRefusal({ host, port, kind: 'unreachable', reason: cause });
    this.opts.onRefusal?.('unreachable');
    return cause;
  }

  /** net.connect with a connect-phase timeout; resolves null on failure. */
  private connectUpstream(target: { host: string; port: number }, address: string, family: 4 | 6): Promise<net.Socket | null> {
    const { port } = target;
    return new Promise((resolve) => {
      const upstream = this.track(net.connect({ host: address, port, family }));
      const timer = setTimeout(() => upstream.destroy(new Error(CONNECT_TIMEOUT)), this.connectTimeoutMs);
      const onError = (err: Error): void => {
        clearTimeout(timer);
        this.debug({ address, port, err: err.message }, 'egress upstream connect failed');
        this.unreachable(target.host, port, err);
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

  async handleRequest(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    req.on('error', () => res.destroy());
    res.on('error', () => req.destroy());
    const target = parseAbsoluteHttpTarget(req.url);
    if (!target) {
      req.resume();
      sendPlain(res, 400, 'Bad request: only absolute http:// URLs are proxied\n');
      return;
    }
    const decision = await this.decide(target.host, target.port);
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
      agent: this.upstreamAgent,
    };
    // A request without a body can be sent again as it is (see `sendUpstream`).
    const replayable = req.method === 'GET' || req.method === 'HEAD';
    this.sendUpstream(req, res, options, target, replayable);
  }

  /**
   * Forwards one request upstream over the keep-alive agent. An idle pooled socket the server closed just as
   * it was reused fails with ECONNRESET/EPIPE before any answer: a race of keep-alive, not an unreachable
   * site, so a request without a body is sent once more on a fresh socket, as browsers do.
   */
  private sendUpstream(
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
      connectTimer = setTimeout(() => upstreamReq.destroy(new Error(CONNECT_TIMEOUT)), this.connectTimeoutMs);
      socket.once('connect', () => clearTimeout(connectTimer));
    });
    upstreamReq.on('close', () => clearTimeout(connectTimer));
    upstreamReq.on('error', (err: NodeJS.ErrnoException) => {
      this.debug({ host: target.host, port: target.port, err: err.message }, 'egress upstream error');
      const raced = upstreamReq.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE');
      if (raced && replayable && !res.headersSent && !res.destroyed) {
        this.sendUpstream(req, res, options, target, false);
        return;
      }
      req.unpipe(upstreamReq);
      req.resume();
      if (res.destroyed) return;
      if (res.headersSent) res.destroy();
      else {
        const cause = this.unreachable(target.host, target.port, err);
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
  private async openTunnel(
    client: Duplex,
    target: { host: string; port: number } | undefined,
    badRequest: string,
  ): Promise<net.Socket | undefined> {
    this.track(client);
    client.on('error', () => client.destroy());
    // Hold any early bytes until the tunnel exists; pipe() resumes.
    client.pause();
    if (!target) {
      endSocket(client, rawResponse('400 Bad Request', badRequest));
      return undefined;
    }
    const decision = await this.decide(target.host, target.port);
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
    const upstream = await this.connectUpstream(target, decision.address, decision.family);
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

  async handleConnect(req: http.IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    const target = req.url ? parseHostPort(req.url) : undefined;
    const upstream = await this.openTunnel(client, target, 'Bad request: CONNECT needs host:port\n');
    if (!upstream) return;
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    splice(client, upstream);
  }

  async handleUpgrade(req: http.IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    const target = parseAbsoluteHttpTarget(req.url);
    const upstream = await this.openTunnel(client, target, 'Bad request: only absolute http:// URLs are proxied\n');
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
}

/** Wires one proxy's handlers to an http server on an ephemeral loopback port. */
function listen(handlers: EgressProxyHandlers): http.Server {
  const server = http.createServer();
  server.on('connection', (socket: net.Socket) => {
    handlers.track(socket);
    // Backstop: the http server handles parse errors via 'clientError', but a stray socket
    // error after a handler detached must never become an uncaught exception.
    socket.on('error', () => socket.destroy());
  });
  server.on('clientError', (_err, socket: Duplex) => {
    endSocket(socket, rawResponse('400 Bad Request', 'Bad request\n'));
  });
  server.on('request', (req, res) => {
    handlers.handleRequest(req, res).catch((err: unknown) => {
      handlers.debug({ err: String(err) }, 'egress proxy request failed');
      sendPlain(res, 502, 'Bad gateway\n');
    });
  });
  server.on('connect', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    handlers.handleConnect(req, socket, head).catch(() => socket.destroy());
  });
  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    handlers.handleUpgrade(req, socket, head).catch(() => socket.destroy());
  });
  server.on('error', (err) => handlers.debug({ err: err.message }, 'egress proxy server error'));
  return server;
}

export async function startEgressProxy(opts: EgressProxyOptions): Promise<EgressProxy> {
  const handlers = new EgressProxyHandlers(opts);
  const server = listen(handlers);
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
    stats: () => ({ ...handlers.counters }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of handlers.sockets) s.destroy();
        handlers.sockets.clear();
        handlers.upstreamAgent.destroy();
      }),
  };
}
