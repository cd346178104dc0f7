import http from 'node:http';
import net from 'node:net';
import { parseAllowlist } from '@render/egress-policy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EgressProxy, startEgressProxy } from '../../src/egress/egress-proxy.ts';
import { findEgressRefusal, recordEgressRefusal } from '../../src/egress/egress-refusals.ts';

let proxy: EgressProxy;
let deadPort: number;

beforeAll(async () => {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  deadPort = (probe.address() as net.AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  proxy = await startEgressProxy({ allowlist: parseAllowlist(`127.0.0.1:${deadPort}`) });
});

afterAll(() => proxy?.close());

const get = (absoluteUrl: string) =>
  new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: proxy.port, path: absoluteUrl, headers: { connection: 'close' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });

const connect = (authority: string) =>
  new Promise<string>((resolve) => {
    const socket = net.connect(proxy.port, '127.0.0.1');
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
    });
    socket.on('close', () => resolve(text));
    socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`);
  });

describe('egress refusals', () => {
  it('finds the newest refusal of a host:port, whatever its spelling, and only since a given time', () => {
    const before = Date.now();
    recordEgressRefusal({ host: '[::1]', port: 9, kind: 'blocked', reason: '::1 is in a private, loopback or reserved network' });
    expect(findEgressRefusal('::1', 9, before)).toMatchObject({
      kind: 'blocked',
      reason: '::1 is in a private, loopback or reserved network',
    });
    expect(findEgressRefusal('[::1]', 10, before)).toBeUndefined();
    expect(findEgressRefusal('[::1]', 9, Date.now() + 1_000)).toBeUndefined();
  });

  it('notes a CONNECT refused by policy, which Chromium reports only as a failed tunnel', async () => {
    const since = Date.now();
    const text = await connect('10.0.0.1:443');
    expect(text.startsWith('HTTP/1.1 403 Forbidden\r\n')).toBe(true);
    expect(findEgressRefusal('10.0.0.1', 443, since)).toMatchObject({
      kind: 'blocked',
      reason: '10.0.0.1 is in a private, loopback or reserved network',
    });
  });

  it('marks its own 502 for an unreachable allow-listed upstream, and notes the cause', async () => {
    const since = Date.now();
    const res = await get(`http://127.0.0.1:${deadPort}/`);
    expect(res.status).toBe(502);
    expect(res.headers['x-egress-error']).toBe('unreachable');
    expect(res.body).toBe('Bad gateway: upstream unavailable (ECONNREFUSED)\n');
    const text = await connect(`127.0.0.1:${deadPort}`);
    expect(text.startsWith('HTTP/1.1 502 Bad Gateway\r\n')).toBe(true);
    expect(findEgressRefusal('127.0.0.1', deadPort, since)).toMatchObject({ kind: 'unreachable', reason: 'ECONNREFUSED' });
  });
});
