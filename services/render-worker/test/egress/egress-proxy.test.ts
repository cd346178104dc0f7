import dns from 'node:dns';
import http from 'node:http';
import net from 'node:net';
import { type LookupFn, parseAllowlist } from '@render/egress-policy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EgressProxy, startEgressProxy } from '../../src/egress/egress-proxy.ts';

type Listening = { server: http.Server; port: number };

// Upgraded sockets are detached from the server, so closeAllConnections() misses them.
const openSockets = new WeakMap<http.Server, Set<net.Socket>>();

async function listen(server: http.Server): Promise<Listening> {
  const sockets = new Set<net.Socket>();
  openSockets.set(server, sockets);
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as net.AddressInfo).port };
}

async function closeServer(server: http.Server): Promise<void> {
  for (const s of openSockets.get(server) ?? []) s.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

// Only names the tests use; anything else fails like NXDOMAIN so nothing leaves the box.
const testLookup: LookupFn = async (hostname, options) => {
  if (hostname === 'rebind.test') return [{ address: '127.0.0.1', family: 4 }];
  if (hostname === 'localhost') return dns.promises.lookup(hostname, options);
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

type ProxyResponse = { status: number; headers: http.IncomingHttpHeaders; body: string; reusedSocket: boolean };

function viaProxy(
  proxy: EgressProxy,
  absoluteUrl: string,
  init: { method?: string; headers?: http.OutgoingHttpHeaders; body?: string | Buffer; agent?: http.Agent } = {},
): Promise<ProxyResponse> {
  return new Promise((resolve, reject) => {
    const target = new URL(absoluteUrl);
    const req = http.request({
      host: '127.0.0.1',
      port: proxy.port,
      method: init.method ?? 'GET',
      path: absoluteUrl,
      headers: { host: target.host, ...init.headers },
      agent: init.agent ?? false,
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          reusedSocket: req.reusedSocket,
        }),
      );
    });
    req.end(init.body);
  });
}

/** Sends raw bytes to the proxy and returns everything it answers until it closes. */
function rawExchange(proxy: EgressProxy, payload: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(proxy.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.write(payload);
  });
}

/** Opens a CONNECT tunnel; resolves once the proxy's response head is in. */
function openTunnel(proxy: EgressProxy, authority: string): Promise<{ statusLine: string; socket: net.Socket; rest: Buffer }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(proxy.port, '127.0.0.1');
    let buf = Buffer.alloc(0);
    const onData = (c: Buffer): void => {
      buf = Buffer.concat([buf, c]);
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.off('data', onData);
      const head = buf.subarray(0, end).toString('latin1');
      resolve({ statusLine: head.split('\r\n')[0] ?? '', socket, rest: buf.subarray(end + 4) });
    };
    socket.on('data', onData);
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`closed before response head: ${buf.toString()}`)));
    socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`);
  });
}

function readUntilClose(socket: net.Socket, initial: Buffer = Buffer.alloc(0)): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [initial];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function waitForData(socket: net.Socket, needle: string, initial: Buffer = Buffer.alloc(0)): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = initial.toString('utf8');
    if (text.includes(needle)) return resolve(text);
    const onData = (c: Buffer): void => {
      text += c.toString('utf8');
      if (text.includes(needle)) {
        socket.off('data', onData);
        resolve(text);
      }
    };
    socket.on('data', onData);
    socket.once('close', () => reject(new Error(`closed without ${needle}: ${text}`)));
  });
}

describe('egress proxy', () => {
  let canary: Listening;
  let allowed: Listening;
  let deadPort: number;
  let proxy: EgressProxy;
  const canaryHits = { requests: 0, connections: 0, upgrades: 0 };
  const logs: { obj: Record<string, unknown>; msg?: string }[] = [];
  let slowRequestClosed: Promise<void>;
  let markSlowClosed: () => void = () => {};

  beforeAll(async () => {
    const canaryServer = http.createServer((_req, res) => {
      canaryHits.requests += 1;
      res.end('canary reached');
    });
    canaryServer.on('connection', () => (canaryHits.connections += 1));
    canaryServer.on('upgrade', (_req, socket: net.Socket) => {
      canaryHits.upgrades += 1;
      socket.destroy();
    });
    canary = await listen(canaryServer);

    slowRequestClosed = new Promise((resolve) => (markSlowClosed = resolve));
    const allowedServer = http.createServer((req, res) => {
      const url = req.url ?? '/';
      if (url.startsWith('/hello')) {
        res.writeHead(200, { 'content-type': 'text/plain', 'x-upstream': 'yes' });
        res.end(`hello ${url}`);
      } else if (url === '/echo') {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const body = Buffer.concat(chunks);
          res.writeHead(200, { 'content-type': 'application/octet-stream', 'x-received-length': String(body.length) });
          res.end(body);
        });
      } else if (url === '/headers') {
        res.writeHead(200, { 'content-type': 'application/json', connection: 'keep-alive', 'keep-alive': 'timeout=77' });
        res.end(JSON.stringify(req.headers));
      } else if (url === '/slow') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('first-chunk');
        res.on('close', () => markSlowClosed());
      } else {
        res.writeHead(404).end();
      }
    });
    allowedServer.on('upgrade', (req, socket: net.Socket, head: Buffer) => {
      socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nX-Path: ${req.url}\r\n\r\n`);
      if (head.length) socket.write(head);
      socket.on('data', (c: Buffer) => socket.write(`echo:${c.toString()}`));
      socket.on('end', () => socket.end());
      socket.on('error', () => socket.destroy());
    });
    allowed = await listen(allowedServer);

    const tmp = await listen(http.createServer());
    deadPort = tmp.port;
    await closeServer(tmp.server);

    proxy = await startEgressProxy({
      allowlist: parseAllowlist(`127.0.0.1:${allowed.port},127.0.0.1:${deadPort}`),
      lookup: testLookup,
      connectTimeoutMs: 2_000,
      logger: {
        warn: (obj, msg) => logs.push({ obj: obj as Record<string, unknown>, msg }),
        debug: () => {},
      },
    });
  });

  afterAll(async () => {
    await proxy?.close();
    await Promise.all([canary && closeServer(canary.server), allowed && closeServer(allowed.server)]);
  });

  it('forwards an absolute-URI GET to an allow-listed server', async () => {
    const res = await viaProxy(proxy, `http://127.0.0.1:${allowed.port}/hello?token=secret-token-value`);
    expect(res.status).toBe(200);
    expect(res.body).toBe('hello /hello?token=secret-token-value');
    expect(res.headers['x-upstream']).toBe('yes');
  });

  it('round-trips a POST body', async () => {
    const body = Buffer.alloc(256 * 1024, 'abcdefgh');
    const res = await viaProxy(proxy, `http://127.0.0.1:${allowed.port}/echo`, { method: 'POST', body });
    expect(res.status).toBe(200);
    expect(res.headers['x-received-length']).toBe(String(body.length));
    expect(res.body).toBe(body.toString('utf8'));
  });

  it('strips hop-by-hop headers and keeps the original Host', async () => {
    const res = await viaProxy(proxy, `http://127.0.0.1:${allowed.port}/headers`, {
      headers: {
        'proxy-authorization': 'Basic c2VjcmV0',
        'proxy-connection': 'keep-alive',
        connection: 'x-drop-me',
        'x-drop-me': '1',
        'x-keep-me': '2',
      },
    });
    expect(res.status).toBe(200);
    const seen = JSON.parse(res.body) as Record<string, string>;
    expect(seen.host).toBe(`127.0.0.1:${allowed.port}`);
    expect(seen['x-keep-me']).toBe('2');
    for (const h of ['proxy-authorization', 'proxy-connection', 'x-drop-me']) expect(seen[h]).toBeUndefined();
    expect(res.headers['keep-alive']).not.toBe('timeout=77');
  });

  it.each([['127.0.0.1'], ['localhost'], ['[::1]'], ['2130706433'], ['0x7f.1'], ['rebind.test']])(
    'refuses absolute-URI GET to the canary via %s',
    async (host) => {
      const res = await viaProxy(proxy, `http://${host}:${canary.port}/?q=secret-token-value`);
      expect(res.status).toBe(403);
      expect(res.headers['x-egress-blocked']).toBe('1');
      expect(res.body).toMatch(/^Blocked by render egress policy: /);
      // The refusal names the host as the URL spells it (numeric forms are canonical there), never what a
      // name resolved to.
      const named = new URL(`http://${host}/`).hostname.replace(/^\[|\]$/g, '');
      const where = /^[a-z]/.test(named) ? 'points to' : 'is in';
      expect(res.body).toBe(`Blocked by render egress policy: ${named} ${where} a private, loopback or reserved network\n`);
    },
  );

  it.each([['127.0.0.1'], ['localhost'], ['[::1]'], ['2130706433'], ['0x7f000001'], ['rebind.test']])(
    'refuses CONNECT to the canary via %s',
    async (host) => {
      const text = await rawExchange(proxy, `CONNECT ${host}:${canary.port} HTTP/1.1\r\nHost: ${host}:${canary.port}\r\n\r\n`);
      expect(text.startsWith('HTTP/1.1 403 Forbidden\r\n')).toBe(true);
      expect(text).toContain('X-Egress-Blocked: 1');
    },
  );

  it('carries an HTTP exchange end to end through a CONNECT tunnel', async () => {
    const { statusLine, socket, rest } = await openTunnel(proxy, `127.0.0.1:${allowed.port}`);
    expect(statusLine).toBe('HTTP/1.1 200 Connection Established');
    const done = readUntilClose(socket, rest);
    socket.write(`GET /hello/tunnel HTTP/1.1\r\nHost: 127.0.0.1:${allowed.port}\r\nConnection: close\r\n\r\n`);
    const text = await done;
    expect(text.startsWith('HTTP/1.1 200 OK')).toBe(true);
    expect(text).toContain('hello /hello/tunnel');
  });

  it('refuses a WebSocket-style upgrade to the canary', async () => {
    const text = await rawExchange(
      proxy,
      `GET http://127.0.0.1:${canary.port}/ws HTTP/1.1\r\nHost: 127.0.0.1:${canary.port}\r\n` +
        'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
    );
    expect(text.startsWith('HTTP/1.1 403 Forbidden\r\n')).toBe(true);
  });

  it('relays a WebSocket-style upgrade to an allow-listed server', async () => {
    const socket = net.connect(proxy.port, '127.0.0.1');
    socket.write(
      `GET http://127.0.0.1:${allowed.port}/ws?x=1 HTTP/1.1\r\nHost: 127.0.0.1:${allowed.port}\r\n` +
        'Proxy-Connection: keep-alive\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n',
    );
    const head = await waitForData(socket, '\r\n\r\n');
    expect(head.startsWith('HTTP/1.1 101 Switching Protocols')).toBe(true);
    expect(head).toContain('X-Path: /ws?x=1');
    socket.write('ping');
    await waitForData(socket, 'echo:ping');
    socket.destroy();
  });

  it('answers 400 for other schemes and malformed targets', async () => {
    const cases = [
      `GET https://127.0.0.1:${allowed.port}/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      'GET ftp://example.test/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      'GET /relative HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      'CONNECT no-port HTTP/1.1\r\nHost: no-port\r\n\r\n',
      'CONNECT ::1:80 HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /ws HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n',
    ];
    for (const payload of cases) {
      const text = await rawExchange(proxy, payload);
      expect(text.startsWith('HTTP/1.1 400'), payload).toBe(true);
    }
  });

  it('keeps the client connection alive across blocked and allowed requests', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await viaProxy(proxy, `http://127.0.0.1:${allowed.port}/hello/1`, { agent });
      const blocked = await viaProxy(proxy, `http://127.0.0.1:${canary.port}/`, { agent });
      const third = await viaProxy(proxy, `http://127.0.0.1:${allowed.port}/hello/3`, { agent });
      expect([first.status, blocked.status, third.status]).toEqual([200, 403, 200]);
      expect(blocked.reusedSocket).toBe(true);
      expect(third.reusedSocket).toBe(true);
      expect(third.body).toBe('hello /hello/3');
    } finally {
      agent.destroy();
    }
  });

  it('returns 502 when an allow-listed upstream refuses connections', async () => {
    const res = await viaProxy(proxy, `http://127.0.0.1:${deadPort}/`);
    expect(res.status).toBe(502);
    const text = await rawExchange(proxy, `CONNECT 127.0.0.1:${deadPort} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(text.startsWith('HTTP/1.1 502 Bad Gateway\r\n')).toBe(true);
  });

  it('survives a client that disconnects mid-tunnel and tears down the upstream side', async () => {
    const { socket, rest } = await openTunnel(proxy, `127.0.0.1:${allowed.port}`);
    socket.write(`GET /slow HTTP/1.1\r\nHost: 127.0.0.1:${allowed.port}\r\n\r\n`);
    await waitForData(socket, 'first-chunk', rest);
    socket.destroy();
    await slowRequestClosed;

    const res = await viaProxy(proxy, `http://127.0.0.1:${allowed.port}/hello/after`);
    expect(res.status).toBe(200);
    expect(res.body).toBe('hello /hello/after');
  });

  it('logs blocks without URLs or query strings, counts decisions, and never reached the canary', () => {
    expect(logs.length).toBeGreaterThan(0);
    for (const entry of logs) {
      expect(entry.msg).toBe('egress blocked');
      // What a refused name resolved to is logged for operators (only), never sent to the page.
      const keys =
        entry.obj.host === 'rebind.test' || entry.obj.host === 'localhost'
          ? ['addresses', 'host', 'port', 'reason']
          : ['host', 'port', 'reason'];
      expect(Object.keys(entry.obj).sort()).toEqual(keys);
      expect(JSON.stringify(entry.obj)).not.toContain('secret-token-value');
    }
    const stats = proxy.stats();
    expect(stats.blocked).toBe(logs.length);
    expect(stats.allowed).toBeGreaterThan(0);
    expect(canaryHits).toEqual({ requests: 0, connections: 0, upgrades: 0 });
  });
});

describe('egress proxy over a kept-alive socket the site has just closed', () => {
  let site: Listening;
  let proxy: EgressProxy;
  const seen = { requests: 0, resets: 0 };

  beforeAll(async () => {
    // Answers the first request on each connection with keep-alive, then resets the connection when a second
    // one arrives on it: what a server whose idle timeout fires just as the pooled socket is reused does.
    const server = http.createServer((req, res) => {
      const socket = req.socket as net.Socket & { answered?: boolean };
      if (socket.answered) {
        seen.resets += 1;
        socket.resetAndDestroy();
        return;
      }
      socket.answered = true;
      seen.requests += 1;
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain', connection: 'keep-alive' }).end(`ok ${req.method}`));
    });
    site = await listen(server);
    proxy = await startEgressProxy({
      allowlist: parseAllowlist(`127.0.0.1:${site.port}`),
      lookup: testLookup,
      logger: { warn: () => {}, debug: () => {} },
    });
  });

  afterAll(async () => {
    await proxy?.close();
    if (site) await closeServer(site.server);
  });

  it('sends a GET again on a fresh socket instead of answering 502 "could not be reached"', async () => {
    const first = await viaProxy(proxy, `http://127.0.0.1:${site.port}/a`);
    const second = await viaProxy(proxy, `http://127.0.0.1:${site.port}/b`);
    expect([first.status, first.body]).toEqual([200, 'ok GET']);
    expect([second.status, second.body]).toEqual([200, 'ok GET']);
    expect(seen.resets).toBe(1);
    expect(seen.requests).toBe(2);
  });

  it('does not send a request with a body twice: the reset is the answer', async () => {
    await viaProxy(proxy, `http://127.0.0.1:${site.port}/warm`);
    const resetsBefore = seen.resets;
    const post = await viaProxy(proxy, `http://127.0.0.1:${site.port}/form`, { method: 'POST', body: 'a=1' });
    expect(post.status).toBe(502);
    expect(post.headers['x-egress-error']).toBe('unreachable');
    expect(seen.resets).toBe(resetsBefore + 1);
  });
});
