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

/** One hop under way: what it opened (all torn down however it ends) and how it ends. */
interface Hop {
  url: URL;
  /** When the hop began: the proxy's refusal records from then on are this hop's. */
  since: number;
  opts: EgressFetchOptions;
  proxy: { host: string; port: number };
  headers: Record<string, string>;
  /** Path and query, as the origin gets them. */
  path: string;
  owned: Array<{ destroy(): void }>;
  succeed(result: HopResult): void;
  failWith(failure: EgressFetchFailure): void;
}

/** One request through the proxy: absolute-form for http, a CONNECT tunnel and TLS for https. */
function hop(url: URL, proxy: URL, opts: EgressFetchOptions, signal: AbortSignal, timeout: AbortSignal): Promise<HopResult> {
  return new Promise<HopResult>((resolve, reject) => {
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

    const state: Hop = {
      url,
      since: Date.now(),
      opts,
      proxy: { host: proxy.hostname, port: Number(proxy.port || 80) },
      headers: { Host: url.host, Accept: opts.accept, 'Accept-Encoding': 'identity', 'User-Agent': 'render-worker' },
      path: `${url.pathname}${url.search}`,
      owned,
      succeed: (result) => settle(() => resolve(result)),
      failWith,
    };
    if (url.protocol === 'https:') tunnelRequest(state);
    else plainRequest(state);
  });
}

/** The proxy's own refusal of a plain-http hop, told apart from an origin's look-alike answer by its record. */
function proxyRefusal(hop: Hop, res: http.IncomingMessage): EgressFetchFailure | undefined {
  const { url, since } = hop;
  const status = res.statusCode ?? 0;
  if (status === 403 && res.headers['x-egress-blocked']) {
    const reason = refusal(url, 'blocked', since);
    if (reason) return { kind: 'blocked', reason, url };
  }
  if (status === 502 && res.headers['x-egress-error'] === 'unresolved') {
    const reason = refusal(url, 'unresolved', since);
    if (reason) return { kind: 'unresolved', reason, url };
  }
  if (status === 502 && res.headers['x-egress-error'] === 'unreachable') {
    const reason = refusal(url, 'unreachable', since);
    if (reason) return { kind: 'unreachable', reason, url };
  }
  return undefined;
}

/** A redirect, or the body up to `maxBytes`. */
function readResponse(hop: Hop, res: http.IncomingMessage, fromProxy: boolean) {
  const { failWith, opts } = hop;
  hop.owned.push(res);
  res.on('error', (err) => failWith({ kind: 'network', reason: errorCode(err) }));
  const status = res.statusCode ?? 0;
  const refused = fromProxy ? proxyRefusal(hop, res) : undefined;
  if (refused) return failWith(refused);
  const location = res.headers.location;
  if (REDIRECTS.has(status) && location) return hop.succeed({ kind: 'redirect', location });
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
    hop.succeed({ kind: 'body', body: Buffer.concat(chunks), contentType });
  });
  res.on('aborted', () => failWith({ kind: 'network', reason: 'the connection closed before the body was complete' }));
}

/** http: one absolute-form request to the proxy. */
function plainRequest(hop: Hop): void {
  const { url, failWith } = hop;
  const req = http.request({
    host: hop.proxy.host,
    port: hop.proxy.port,
    method: 'GET',
    path: `http://${url.host}${hop.path}`,
    headers: hop.headers,
    agent: false,
  });
  hop.owned.push(req);
  let answered = false;
  // The proxy answers every upstream failure itself; a failure before any answer is the proxy's own.
  req.on('error', (err) => failWith({ kind: answered ? 'network' : 'proxy', reason: errorCode(err) }));
  req.on('response', (res) => {
    answered = true;
    readResponse(hop, res, true);
  });
  req.end();
}

/** Why the proxy did not open the tunnel (its answer to CONNECT), or undefined when it did. */
function connectRefusal(hop: Hop, statusCode: number | undefined): EgressFetchFailure | undefined {
  const { url, since } = hop;
  if (statusCode === 403) return { kind: 'blocked', reason: refusal(url, 'blocked', since) ?? 'refused by the egress policy', url };
  const unresolved = statusCode === 502 ? refusal(url, 'unresolved', since) : undefined;
  if (unresolved) return { kind: 'unresolved', reason: unresolved, url };
  if (statusCode === 502)
    return { kind: 'unreachable', reason: refusal(url, 'unreachable', since) ?? 'the server could not be reached', url };
  if (statusCode !== 200) return { kind: 'proxy', reason: `CONNECT answered ${statusCode}` };
  return undefined;
}

/** https: a CONNECT tunnel through the proxy, TLS over it, then the request. */
function tunnelRequest(hop: Hop) {
  const { url, failWith, owned } = hop;
  const authority = `${url.hostname}:${defaultPort(url)}`;
  const connect = http.request({
    host: hop.proxy.host,
    port: hop.proxy.port,
    method: 'CONNECT',
    path: authority,
    headers: { Host: authority },
    agent: false,
  });
  owned.push(connect);
  connect.on('error', (err) => failWith({ kind: 'proxy', reason: errorCode(err) }));
  connect.on('connect', (res: http.IncomingMessage, socket: Duplex) => {
    owned.push(socket);
    const refused = connectRefusal(hop, res.statusCode);
    if (refused) return failWith(refused);
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
      const req = http.request({ method: 'GET', path: hop.path, headers: hop.headers, createConnection: () => secure });
      owned.push(req);
      req.on('error', (err) => failWith({ kind: 'network', reason: errorCode(err) }));
      req.on('response', (res) => readResponse(hop, res, false));
      req.end();
    });
  });
  connect.end();
}
