import dns from 'node:dns';
import { AppError } from '@render/contracts';
import { type LookupFn, resolveTarget } from '@render/egress-policy';

/**
 * The webhook's address, checked at submission with the workers' own egress policy (`@render/egress-policy`,
 * the same RENDER_EGRESS_ALLOWLIST): a name is resolved and refused when it points to a private, loopback or
 * reserved address (`localhost.`, names in /etc/hosts, `[::127.0.0.1]`), so the caller gets a 400 instead of a
 * 202 and a refused delivery. The worker checks again at each delivery (DNS answers change), and connects to
 * the address it checked.
 */
const defaultPort = (url: URL) => (url.port === '' ? (url.protocol === 'https:' ? '443' : '80') : url.port);

/** A resolver that hangs (no DNS server answering) must not hold the call: past this, a 503 to retry. */
const LOOKUP_TIMEOUT_MS = 5_000;
/** Resolver failures that say "not now" rather than "no such name". */
const TEMPORARY_DNS_CODES = new Set(['EAI_AGAIN', 'ETIMEOUT']);
export const DNS_RETRY_AFTER_SECONDS = 5;

const boundedLookup: LookupFn = (hostname, options) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(Object.assign(new Error('DNS lookup timed out'), { code: 'ETIMEOUT' })), LOOKUP_TIMEOUT_MS);
    dns.promises
      .lookup(hostname, options)
      .then(resolve, reject)
      .finally(() => clearTimeout(timer));
  });

/** Why the webhook's address is refused (a 400, or a 503 while DNS does not answer), or null. */
export async function webhookAddressRefusal(url: URL, allowlist: Set<string>, lookup: LookupFn = boundedLookup): Promise<AppError | null> {
  const decision = await resolveTarget(url.hostname, Number(defaultPort(url)), { allowlist, lookup });
  if (decision.allowed) return null;
  if (decision.cause === 'unresolved' && decision.code && TEMPORARY_DNS_CODES.has(decision.code)) {
    return new AppError('SERVICE_UNAVAILABLE', `webhook host ${decision.reason}; please retry shortly`, undefined, {
      retryAfterSeconds: DNS_RETRY_AFTER_SECONDS,
    });
  }
  if (decision.cause === 'unresolved') return new AppError('VALIDATION_ERROR', `webhook host ${decision.reason}`);
  // Named as the caller wrote it, never as what it resolved to.
  return new AppError('VALIDATION_ERROR', `webhook must not point to a private, loopback or reserved address (${url.hostname})`);
}

/** `WEBHOOK_PORTS` as a set of port strings, or null for any port. */
export function parseWebhookPorts(raw: string): Set<string> | null {
  const ports = raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  return ports.length ? new Set(ports.map((p) => String(Number(p)))) : null;
}

/** Why a webhook's port is refused by this deployment, or null (any port allowed, or one of those allowed). */
export function webhookPortRefusal(url: URL, ports: Set<string> | null): string | null {
  if (!ports || ports.has(defaultPort(url))) return null;
  const allowed = [...ports];
  const list = allowed.length === 1 ? allowed[0] : `${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}`;
  return `webhook must use port ${list} on this server (${url.host} uses ${defaultPort(url)})`;
}
