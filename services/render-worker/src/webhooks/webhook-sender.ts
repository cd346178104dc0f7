import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { WEBHOOK_SIGNATURE_HEADER } from '@render/contracts';
import { resolveTarget } from '@render/egress-policy';

/**
 * One webhook POST under the egress policy. Not through the egress proxy (that one only takes GETs and
 * CONNECTs from Chromium): the same policy is applied here directly, on the address the name resolves to
 * at delivery time, and the request connects to exactly that address (so a DNS answer changed between the
 * check and the connection cannot move it to an internal one). Redirects are not followed: a 3xx is a
 * failed attempt like any other non-2xx answer.
 */
export type SendResult =
  | { kind: 'answered'; statusCode: number }
  /** The egress policy refused the target (private, loopback, reserved): never retried. */
  | { kind: 'refused'; reason: string }
  /** No answer: timeout, connection or TLS error. */
  | { kind: 'failed'; code: 'TIMEOUT' | 'CONNECTION_FAILED'; reason: string };

export interface SendOptions {
  allowlist: Set<string>;
  timeoutMs: number;
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, as the docs tell receivers to check it. */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const v1 = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${v1}`;
}

const defaultPort = (url: URL) => (url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port));
const errorCode = (err: unknown) => (err as NodeJS.ErrnoException)?.code ?? (err as Error)?.message ?? 'error';

export async function sendWebhook(url: URL, body: string, secret: string, opts: SendOptions): Promise<SendResult> {
  const port = defaultPort(url);
  const decision = await resolveTarget(url.hostname, port, { allowlist: opts.allowlist });
  // A name that does not resolve now may later (it was checked at submission): retried like a connection error.
  if (!decision.allowed && decision.cause === 'unresolved') return { kind: 'failed', code: 'CONNECTION_FAILED', reason: decision.reason };
  if (!decision.allowed) return { kind: 'refused', reason: decision.reason };
  const secure = url.protocol === 'https:';
  const bareHost = url.hostname.replace(/^\[|\]$/g, '');
  const headers = {
    Host: url.host,
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    'User-Agent': 'render-webhooks/1',
    [WEBHOOK_SIGNATURE_HEADER]: signatureHeader(secret, body, Math.floor(Date.now() / 1000)),
  };
  return new Promise<SendResult>((resolve) => {
    const request = (secure ? https : http).request({
      host: decision.address,
      family: decision.family,
      port,
      method: 'POST',
      path: `${url.pathname}${url.search}`,
      headers,
      agent: false,
      // The certificate is checked against the name in the URL (SNI too), though we connect to the address.
      ...(secure && net.isIP(bareHost) === 0 ? { servername: bareHost } : {}),
      signal: AbortSignal.timeout(opts.timeoutMs),
    });
    let settled = false;
    const settle = (result: SendResult) => {
      if (settled) return;
      settled = true;
      request.destroy();
      resolve(result);
    };
    request.on('response', (res) => {
      // Only the status matters; the body is not read (a receiver could stream forever).
      settle({ kind: 'answered', statusCode: res.statusCode ?? 0 });
      res.destroy();
    });
    request.on('error', (err) => {
      const timedOut = (err as Error).name === 'AbortError' || (err as Error).name === 'TimeoutError';
      settle(
        timedOut
          ? { kind: 'failed', code: 'TIMEOUT', reason: `no answer within ${opts.timeoutMs / 1000} s` }
          : { kind: 'failed', code: 'CONNECTION_FAILED', reason: `connection failed (${errorCode(err)})` },
      );
    });
    request.end(body);
  });
}
