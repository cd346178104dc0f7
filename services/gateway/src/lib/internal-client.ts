import http from 'node:http';
import https from 'node:https';
import { serviceUnavailable } from './service-fetch.ts';

export interface InternalAnswer {
  status: number;
  /** The body parsed as JSON; undefined when it is not JSON. */
  json(): unknown;
}

export interface InternalClientOptions {
  /** The service's origin, e.g. http://127.0.0.1:3001 (paths are absolute). */
  baseUrl: string;
  /** How long a call may take, answer read, before it is the caller's 503. */
  timeoutMs: number;
  /** Named in the 503, e.g. "account service". */
  serviceName: string;
  /** Sent with every call (the internal token). */
  headers: Record<string, string>;
}

export interface InternalClient {
  /** One call; `body` is sent as JSON. Rejects with the service's 503 when it is unreachable or too slow. */
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<InternalAnswer>;
  /** Closes the pooled connections. */
  close(): void;
}

// A pooled connection the service closed while idle fails at once with one of these; it never saw the call.
const STALE_CONNECTION = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/**
 * Calls to one of our own services over node:http with a keep-alive pool. Per call this costs a fraction
 * of the CPU fetch (undici) does, and the billed path makes two such calls per render. Pooled sockets are
 * let go before the service's own keep-alive timeout (Fastify's is 72 s), and the calls made through it
 * are all idempotent (lookups, reservations and settlements keyed by request id), so one that meets a
 * pooled connection closed at that very moment is sent once more on a fresh one.
 */
export function internalClient(opts: InternalClientOptions): InternalClient {
  const base = new URL(opts.baseUrl);
  const transport = base.protocol === 'https:' ? https : http;
  const agent = new transport.Agent({ keepAlive: true, timeout: 30_000, scheduling: 'lifo' });
  const unavailable = () => serviceUnavailable(opts.serviceName);

  function send(method: string, path: string, payload: Buffer | undefined, headers: Record<string, string>, retried: boolean) {
    return new Promise<InternalAnswer>((resolve, reject) => {
      const req = transport.request({
        protocol: base.protocol,
        hostname: base.hostname,
        port: base.port,
        method,
        path,
        agent,
        headers: payload
          ? { ...opts.headers, ...headers, 'content-type': 'application/json', 'content-length': payload.length }
          : { ...opts.headers, ...headers },
      });
      const timer = setTimeout(() => req.destroy(unavailable()), opts.timeoutMs);
      let answered = false;
      req.on('response', (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', () => undefined);
        res.on('close', () => {
          clearTimeout(timer);
          if (!res.complete) return reject(unavailable());
          const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            json: () => {
              try {
                return JSON.parse(body.toString('utf8'));
              } catch {
                return undefined;
              }
            },
          });
        });
      });
      req.on('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        if (answered) return;
        if (!retried && req.reusedSocket && err.code && STALE_CONNECTION.has(err.code)) {
          send(method, path, payload, headers, true).then(resolve, reject);
          return;
        }
        reject(unavailable());
      });
      req.end(payload);
    });
  }

  return {
    request: (method, path, body, headers = {}) =>
      send(method, path, body === undefined ? undefined : Buffer.from(JSON.stringify(body)), headers, false),
    close: () => agent.destroy(),
  };
}
