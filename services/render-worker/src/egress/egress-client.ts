import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';
import { type EgressRefusalKind, findEgressRefusal } from './egress-refusals.ts';

/**
 * The worker's own HTTP client for content it fetches itself (SVG image variables). Every hop goes through
 * the egress proxy, so the worker gets exactly the policy pages get: resolved-address checks, the
 * allowlist, and a connection to the address that was checked.
 */
export type EgressFetchFailure =
  /** The proxy refused the target; `url` is the hop that was refused (a redirect target, maybe). */
  | { kind: 'blocked'; reason: string; url: URL }
  | { kind: 'unreachable'; reason: string; url: URL }
  /** The name did not resolve; `reason` says so ("<host> could not be resolved (ENOTFOUND)"). */
  | { kind: 'unresolved'; reason: string; url: URL }
  | { kind: 'status'; status: number }
  | { kind: 'timeout' }
  | { kind: 'too-large' }
  | { kind: 'redirect'; reason: string }
  /** The origin misbehaved (reset, TLS failure, truncated body). */
  | { kind: 'network'; reason: string }
  /** Our own proxy could not be used: a fault of the worker, not of the URL. */
  | { kind: 'proxy'; reason: string };

export class EgressFetchError extends Error {
  override name = 'EgressFetchError';
  constructor(readonly failure: EgressFetchFailure) {
    super(`egress fetch failed: ${failure.kind}`);
  }
}

export interface EgressFetchOptions {
  proxyUrl: string;
  maxBytes: number;
  /** Budget for the whole fetch: every hop and the body. */
  timeoutMs: number;
  maxRedirects: number;
  accept: string;
  /** Aborts the fetch from outside (e.g. a sibling fetch already failed the job). */
  signal?: AbortSignal;
}

export interface EgressFetchResult {
  body: Buffer;
  url: URL;
  contentType: string | undefined;
}

type HopResult = { kind: 'redirect'; location: string } | { kind: 'body'; body: Buffer; contentType: string | undefined };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const fail = (failure: EgressFetchFailure) => new EgressFetchError(failure);

const errorCode = (err: unknown) => (err as NodeJS.ErrnoException)?.code ?? (err as Error)?.message ?? 'error';

const defaultPort = (url: URL) => (url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port));

/** The proxy records why it refused; its own answers are told apart from an origin's look-alike by that record. */
function refusal(url: URL, kind: EgressRefusalKind, since: number): string | undefined {
  const found = findEgressRefusal(url.hostname, defaultPort(url), since);
  return found?.kind === kind ? found.reason : undefined;
}

export async function fetchViaEgress(start: URL, opts: EgressFetchOptions): Promise<EgressFetchResult> {
  let url = start;
  const proxy = new URL(opts.proxyUrl);
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout;
  for (let redirects = 0; ; redirects++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw fail({ kind: 'redirect', reason: `redirected to a ${url.protocol} URL` });
    const result = await hop(url, proxy, opts, signal, timeout);
    if (result.kind === 'body') return { body: result.body, url, contentType: result.contentType };
    if (redirects >= opts.maxRedirects) throw fail({ kind: 'redirect', reason: `too many redirects (more than ${opts.maxRedirects})` });
    try {
      url = new URL(result.location, url);
    } catch {
      throw fail({ kind: 'redirect', reason: 'redirected to an invalid URL' });
    }
  }
}

/** One request through the proxy: absolute-form for http, a CONNECT tunnel and TLS for https. */
function hop(url: URL, proxy: URL, opts: EgressFetchOptions, signal: AbortSignal, timeout: AbortSignal): Promise<HopResult> {
  const since = Date.now();
  const https = url.protocol === 'https:';
  const headers = { Host: url.host, Accept: opts.accept, 'Accept-Encoding': 'identity', 'User-Agent': 'render-worker' };
  const path = `${url.pathname}${url.search}`;
  const proxyPort = Number(proxy.port || 80);

  return new Promise<HopResult>((resolve, reject) => {
    // Everything this hop opened; all of it is torn down however the hop ends.
    const owned: Array<{ destroy(): void }> = [];
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      for (const o of owned) o.destroy();
      fn();
    };
    const failWith = (failure: EgressFetchFailure) => settle(() => reject(fail(failure)));
    const onAbort = () => failWith(timeout.aborted ? { kind: 'timeout' } : { kind: 'network', reason: 'aborted' });
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });

    const onResponse = (res: http.IncomingMessage, fromProxy: boolean) => {
      owned.push(res);
      res.on('error', (err) => failWith({ kind: 'network', reason: errorCode(err) }));
      const status = res.statusCode ?? 0;
      if (fromProxy && status === 403 && res.headers['x-egress-blocked']) {
        const reason = refusal(url, 'blocked', since);
        if (reason) return failWith({ kind: 'blocked', reason, url });
      }
      if (fromProxy && status === 502 && res.headers['x-egress-error'] === 'unresolved') {
        const reason = refusal(url, 'unresolved', since);
        if (reason) return failWith({ kind: 'unresolved', reason, url });
      }
      if (fromProxy && status === 502 && res.headers['x-egress-error'] === 'unreachable') {
        const reason = refusal(url, 'unreachable', since);
        if (reason) return failWith({ kind: 'unreachable', reason, url });
      }
      const location = res.headers.location;
      if (REDIRECTS.has(status) && location) return settle(() => resolve({ kind: 'redirect', location }));
      if (status < 200 || status >= 300) return failWith({ kind: 'status', status });
      if (Number(res.headers['content-length']) > opts.maxBytes) return failWith({ kind: 'too-large' });
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > opts.maxBytes) failWith({ kind: 'too-large' });
        else chunks.push(chunk);
      });
      res.on('end', () => {
        const contentType = res.headers['content-type'];
        settle(() => resolve({ kind: 'body', body: Buffer.concat(chunks), contentType }));
      });
      res.on('aborted', () => failWith({ kind: 'network', reason: 'the connection closed before the body was complete' }));
    };

    if (!https) {
      const req = http.request({
        host: proxy.hostname,
        port: proxyPort,
        method: 'GET',
        path: `http://${url.host}${path}`,
        headers,
        agent: false,
      });
      owned.push(req);
      let answered = false;
      // The proxy answers every upstream failure itself; a failure before any answer is the proxy's own.
      req.on('error', (err) => failWith({ kind: answered ? 'network' : 'proxy', reason: errorCode(err) }));
      req.on('response', (res) => {
        answered = true;
        onResponse(res, true);
      });
      req.end();
      return;
    }

    const authority = `${url.hostname}:${defaultPort(url)}`;
    const connect = http.request({
      host: proxy.hostname,
      port: proxyPort,
      method: 'CONNECT',
      path: authority,
      headers: { Host: authority },
      agent: false,
    });
    owned.push(connect);
    connect.on('error', (err) => failWith({ kind: 'proxy', reason: errorCode(err) }));
    connect.on('connect', (res: http.IncomingMessage, socket: Duplex) => {
      owned.push(socket);
      if (res.statusCode === 403) {
        return failWith({ kind: 'blocked', reason: refusal(url, 'blocked', since) ?? 'refused by the egress policy', url });
      }
      const unresolved = res.statusCode === 502 ? refusal(url, 'unresolved', since) : undefined;
      if (unresolved) return failWith({ kind: 'unresolved', reason: unresolved, url });
      if (res.statusCode === 502) {
        return failWith({ kind: 'unreachable', reason: refusal(url, 'unreachable', since) ?? 'the server could not be reached', url });
      }
      if (res.statusCode !== 200) return failWith({ kind: 'proxy', reason: `CONNECT answered ${res.statusCode}` });
      const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
      // SNI carries names only; an IP literal is still checked against the certificate through `host`.
      const secure = tls.connect({
        socket: socket as net.Socket,
        host,
        ...(net.isIP(host) === 0 ? { servername: host } : {}),
        ALPNProtocols: ['http/1.1'],
      });
      owned.push(secure);
      secure.on('error', (err) => failWith({ kind: 'network', reason: `the TLS connection failed (${errorCode(err)})` }));
      secure.once('secureConnect', () => {
        const req = http.request({ method: 'GET', path, headers, createConnection: () => secure });
        owned.push(req);
        req.on('error', (err) => failWith({ kind: 'network', reason: errorCode(err) }));
        req.on('response', (res) => onResponse(res, false));
        req.end();
      });
    });
    connect.end();
  });
}
