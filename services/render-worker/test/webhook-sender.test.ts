import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendWebhook, signatureHeader } from '../src/webhooks/webhook-sender.ts';

// One webhook POST under the egress policy, against real servers on 127.0.0.1.

type Seen = { method?: string; path?: string; signature?: string; body: string };
const seen: Seen[] = [];
const canarySeen: Seen[] = [];
let server: http.Server;
let canary: http.Server;
let port: number;
let canaryPort: number;

const listen = async (handler: http.RequestListener) => {
  const s = http.createServer(handler);
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return { s, port: (s.address() as AddressInfo).port };
};
const record = (into: Seen[], req: http.IncomingMessage, done: (body: string) => void) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    into.push({ method: req.method, path: req.url, signature: String(req.headers['x-render-signature'] ?? ''), body });
    done(body);
  });
};

beforeAll(async () => {
  ({ s: canary, port: canaryPort } = await listen((req, res) => record(canarySeen, req, () => res.writeHead(200).end())));
  ({ s: server, port } = await listen((req, res) =>
    record(seen, req, () => {
      if (req.url === '/redirect') res.writeHead(302, { location: `http://127.0.0.1:${canaryPort}/stolen` }).end();
      else if (req.url === '/slow') setTimeout(() => res.writeHead(200).end(), 5_000).unref();
      else res.writeHead(204).end();
    }),
  ));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await new Promise((r) => canary.close(r));
});

const allowlist = () => new Set([`127.0.0.1:${port}`]);

describe('sendWebhook', () => {
  it('POSTs the body with a signature over "<t>.<body>" and reports the answer', async () => {
    const body = JSON.stringify({ id: 'x', status: 'done', format: 'png', size: 1 });
    const result = await sendWebhook(new URL(`http://127.0.0.1:${port}/hook?a=1`), body, 'whsec_test', {
      allowlist: allowlist(),
      timeoutMs: 2_000,
    });
    expect(result).toEqual({ kind: 'answered', statusCode: 204 });
    const got = seen.find((s) => s.path === '/hook?a=1')!;
    expect(got).toMatchObject({ method: 'POST', body });
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(got.signature!)!;
    expect(Math.abs(Number(t) - Date.now() / 1000)).toBeLessThan(5);
    expect(v1).toBe(createHmac('sha256', 'whsec_test').update(`${t}.${body}`).digest('hex'));
    expect(got.signature).toBe(signatureHeader('whsec_test', body, Number(t)));
  });

  it('does not follow a redirect: a 3xx is the answer, and its target sees nothing', async () => {
    const result = await sendWebhook(new URL(`http://127.0.0.1:${port}/redirect`), '{}', 's', { allowlist: allowlist(), timeoutMs: 2_000 });
    expect(result).toEqual({ kind: 'answered', statusCode: 302 });
    expect(canarySeen).toEqual([]);
  });

  it('gives up on a receiver that does not answer in time', async () => {
    const started = Date.now();
    const result = await sendWebhook(new URL(`http://127.0.0.1:${port}/slow`), '{}', 's', { allowlist: allowlist(), timeoutMs: 300 });
    expect(result).toEqual({ kind: 'failed', code: 'TIMEOUT', reason: 'no answer within 0.3 s' });
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('refuses loopback, private and metadata targets that are not allow-listed, without connecting', async () => {
    for (const url of [
      `http://127.0.0.1:${canaryPort}/x`,
      `http://localhost:${canaryPort}/x`,
      'http://169.254.169.254/latest',
      'http://10.0.0.1/x',
      'http://[::1]/x',
    ]) {
      const result = await sendWebhook(new URL(url), '{}', 's', { allowlist: allowlist(), timeoutMs: 2_000 });
      expect(result.kind, url).toBe('refused');
      expect((result as { reason: string }).reason, url).toMatch(/private, loopback or reserved network/);
    }
    expect(canarySeen).toEqual([]);
  });

  it('reports a connection that fails', async () => {
    const closed = await listen(() => undefined);
    await new Promise((r) => closed.s.close(r));
    const result = await sendWebhook(new URL(`http://127.0.0.1:${closed.port}/x`), '{}', 's', {
      allowlist: new Set([`127.0.0.1:${closed.port}`]),
      timeoutMs: 2_000,
    });
    expect(result).toEqual({ kind: 'failed', code: 'CONNECTION_FAILED', reason: 'connection failed (ECONNREFUSED)' });
  });

  it('says a name that does not resolve could not be resolved, as a failure to retry (not a refusal)', async () => {
    const result = await sendWebhook(new URL('http://no-such-host.invalid/x'), '{}', 's', { allowlist: allowlist(), timeoutMs: 2_000 });
    expect(result).toEqual({ kind: 'failed', code: 'CONNECTION_FAILED', reason: 'no-such-host.invalid could not be resolved (ENOTFOUND)' });
  });

  it('delivers to localhost when 127.0.0.1 is allow-listed on that port', async () => {
    const result = await sendWebhook(new URL(`http://localhost:${port}/hook`), '{}', 's', {
      allowlist: new Set([`127.0.0.1:${port}`]),
      timeoutMs: 2_000,
    });
    expect(result).toEqual({ kind: 'answered', statusCode: 204 });
  });
});
