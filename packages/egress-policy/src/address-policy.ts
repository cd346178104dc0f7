import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The one egress policy: the render worker's proxy and webhook deliveries apply it, and the gateway applies it
 * to a webhook URL at submission. `reason` is user-facing (see NOT_PUBLIC); `addresses`, what a refused name
 * resolved to, is for the worker's own log only. `cause` tells a refusal by the policy (`not-public`) from a
 * name that could not be resolved (`unresolved`, with the resolver's `code`: ENOTFOUND is final, EAI_AGAIN
 * may pass) and from a target that is not one (`invalid`).
 */
export type EgressRefusalCause = 'not-public' | 'unresolved' | 'invalid';
export type EgressDecision =
  | { allowed: true; address: string; family: 4 | 6 }
  | { allowed: false; cause: EgressRefusalCause; reason: string; code?: string; addresses?: string[] };

export type LookupAddress = { address: string; family: number };

/** Same shape as `dns.promises.lookup(host, { all: true, verbatim: true })`, injectable for tests. */
export type LookupFn = (hostname: string, options: { all: true; verbatim: true }) => Promise<LookupAddress[]>;

export type ResolveTargetOptions = {
  allowlist: Set<string>;
  lookup?: LookupFn;
};

const defaultLookup: LookupFn = (hostname, options) => dns.promises.lookup(hostname, options);

// Only 2000::/3 is allocated for global unicast; ipaddr.js labels everything it has no
// special range for as 'unicast', which would otherwise let e.g. ::7f00:1
// (deprecated IPv4-compatible form) or other unallocated space through.
const IPV6_GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * Why an address is refused, in words that reach API callers (screenshot and image-variable errors). It
 * names only the host as the caller wrote it, never what it resolved or decoded to: echoing DNS answers
 * would let anyone map the worker's internal network through our error messages.
 */
const NOT_PUBLIC = 'a private, loopback or reserved network';
const literalNotPublic = (host: string) => `${host} is in ${NOT_PUBLIC}`;
const nameNotPublic = (host: string) => `${host} points to ${NOT_PUBLIC}`;
const notPublic = (reason: string, addresses?: string[]): EgressDecision => ({
  allowed: false,
  cause: 'not-public',
  reason,
  ...(addresses ? { addresses } : {}),
});
/** Says the name could not be resolved, not that its address is refused: a typo or a DNS outage, not the policy. */
const unresolved = (host: string, code?: string): EgressDecision => ({
  allowed: false,
  cause: 'unresolved',
  reason: code ? `${host} could not be resolved (${code})` : `${host} resolved to no addresses`,
  ...(code ? { code } : {}),
});

const HOSTNAME_RE = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*$/;

function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/**
 * True only for globally routable unicast. Anything else (loopback, RFC1918, link-local
 * incl. cloud metadata, CGNAT, multicast, reserved, NAT64/6to4/teredo wrappers, ...) is
 * refused: those wrappers can carry an internal IPv4 and failing closed is cheaper than
 * decoding each one.
 */
export function isPublicAddress(ip: string): boolean {
  const bare = stripBrackets(ip.trim());
  // net.isIP rejects the legacy inet_aton spellings (0x7f.1, 2130706433); callers that may see
  // those must canonicalise first, so an unexpected form fails closed here.
  if (net.isIP(bare) === 0) return false;
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.parse(bare);
  } catch {
    return false;
  }
  if (addr.kind() === 'ipv6') {
    const v6 = addr as ipaddr.IPv6;
    // The kernel routes ::ffff:a.b.c.d to the IPv4 address, so judge it as that.
    if (v6.isIPv4MappedAddress()) return isPublicIPv4(v6.toIPv4Address());
    if (v6.zoneId !== undefined) return false;
    return v6.range() === 'unicast' && v6.match(IPV6_GLOBAL_UNICAST);
  }
  return isPublicIPv4(addr as ipaddr.IPv4);
}

function isPublicIPv4(addr: ipaddr.IPv4): boolean {
  return addr.range() === 'unicast';
}

/** Canonical allowlist key so `[0:0::1]:80` and `[::1]:80` compare equal. */
function hostKey(host: string): string {
  const bare = stripBrackets(host.trim().toLowerCase()).replace(/\.$/, '');
  if (net.isIP(bare) === 6) {
    try {
      return `[${ipaddr.IPv6.parse(bare).toString()}]`;
    } catch {
      return `[${bare}]`;
    }
  }
  return bare;
}

function targetKey(host: string, port: number): string {
  return `${hostKey(host)}:${port}`;
}

export function parsePort(raw: string): number | undefined {
  if (!/^\d{1,5}$/.test(raw)) return undefined;
  const port = Number(raw);
  return port >= 1 && port <= 65535 ? port : undefined;
}

/**
 * Splits `host:port` / `[v6]:port` (the CONNECT authority form). Unbracketed IPv6 is
 * rejected because the port boundary would be ambiguous.
 */
export function parseHostPort(raw: string): { host: string; port: number } | undefined {
  const value = raw.trim();
  let host: string;
  let portRaw: string;
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    if (end < 0 || value[end + 1] !== ':') return undefined;
    host = value.slice(1, end);
    portRaw = value.slice(end + 2);
    if (net.isIP(host.split('%')[0] ?? '') !== 6) return undefined;
  } else {
    const idx = value.lastIndexOf(':');
    if (idx <= 0) return undefined;
    host = value.slice(0, idx);
    portRaw = value.slice(idx + 1);
    if (host.includes(':')) return undefined;
    if (!HOSTNAME_RE.test(host.toLowerCase().replace(/\.$/, ''))) return undefined;
  }
  const port = parsePort(portRaw);
  if (port === undefined) return undefined;
  return { host: host.toLowerCase(), port };
}

/** Parses `host:port,host:port,[v6]:port`; a typo must not silently widen or drop access, so bad entries throw. */
export function parseAllowlist(raw: string | undefined): Set<string> {
  const out = new Set<string>();
  if (raw === undefined) return out;
  for (const part of raw.split(',')) {
    const entry = part.trim().toLowerCase();
    if (entry === '') continue;
    const parsed = parseHostPort(entry);
    if (!parsed) {
      throw new Error(`Invalid egress allowlist entry "${part.trim()}": expected host:port or [ipv6]:port`);
    }
    out.add(targetKey(parsed.host, parsed.port));
  }
  return out;
}

function familyOf(address: string): 4 | 6 {
  return net.isIP(address) === 6 ? 6 : 4;
}

/**
 * Returns the literal address the caller must connect to. Connecting to this exact
 * address (never re-resolving the name) is what defeats DNS rebinding.
 */
function canonicalAddress(address: string): { address: string; family: 4 | 6 } {
  const parsed = ipaddr.process(address);
  const text = parsed.toString();
  return { address: text, family: parsed.kind() === 'ipv6' ? 6 : 4 };
}

/** The addresses `localhost` stands for (RFC 6761), whatever this machine's hosts file lists first. */
const LOCALHOST_ADDRESSES = new Set(['127.0.0.1', '::1']);

/**
 * `localhost:8080` on the allow-list admits `127.0.0.1:8080` and `[::1]:8080` too: an operator who lists the
 * name means the loopback service on that port, and a page may well link it by address. Only that port, and
 * only the two addresses the name means, never the rest of 127/8.
 */
function listedAsLocalhost(address: string, port: number, allowlist: Set<string>): boolean {
  if (!allowlist.has(targetKey('localhost', port))) return false;
  return LOCALHOST_ADDRESSES.has(ipaddr.process(address).toString());
}

export async function resolveTarget(host: string, port: number, opts: ResolveTargetOptions): Promise<EgressDecision> {
  const lookup = opts.lookup ?? defaultLookup;
  // `localhost.` is `localhost` written as an absolute name: resolved (and named in reasons) without the dot,
  // as /etc/hosts knows it. The connection goes to the address checked here, whatever the spelling.
  const bare = stripBrackets(host.trim())
    .toLowerCase()
    .replace(/(?<=[^.])\.$/, '');
  if (bare === '') return { allowed: false, cause: 'invalid', reason: 'empty host' };
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    return { allowed: false, cause: 'invalid', reason: `invalid port ${String(port)}` };
  }

  if (opts.allowlist.has(targetKey(bare, port))) {
    if (net.isIP(bare) !== 0) return { allowed: true, address: bare, family: familyOf(bare) };
    try {
      const addrs = await lookup(bare, { all: true, verbatim: true });
      const first = addrs[0];
      if (!first) return unresolved(bare);
      return { allowed: true, address: first.address, family: familyOf(first.address) };
    } catch (err) {
      return unresolved(bare, errorCode(err));
    }
  }

  if (net.isIP(bare) !== 0) {
    if (listedAsLocalhost(bare, port, opts.allowlist)) return { allowed: true, ...canonicalAddress(bare) };
    if (!isPublicAddress(bare)) return notPublic(literalNotPublic(bare));
    return { allowed: true, ...canonicalAddress(bare) };
  }

  // getaddrinfo accepts inet_aton spellings (2130706433, 0x7f.1, 0177.1); decode them the same
  // way here so they are judged as the address they really are, independent of the resolver.
  if (ipaddr.IPv4.isValid(bare)) {
    const v4 = ipaddr.IPv4.parse(bare).toString();
    if (opts.allowlist.has(targetKey(v4, port)) || listedAsLocalhost(v4, port, opts.allowlist)) {
      return { allowed: true, address: v4, family: 4 };
    }
    if (!isPublicAddress(v4)) return notPublic(literalNotPublic(bare));
    return { allowed: true, address: v4, family: 4 };
  }

  let addrs: LookupAddress[];
  try {
    addrs = await lookup(bare, { all: true, verbatim: true });
  } catch (err) {
    return unresolved(bare, errorCode(err));
  }
  if (addrs.length === 0) return unresolved(bare);
  // A name that resolves to an allow-listed address:port reaches that one (`localhost:18081` when
  // `127.0.0.1:18081` is listed): the connection goes to exactly that address, so the name's other answers
  // (`::1`, or anything else) are never dialled.
  const listed = addrs.find((a) => opts.allowlist.has(targetKey(a.address, port)));
  if (listed) return { allowed: true, address: listed.address, family: familyOf(listed.address) };
  // Any internal answer refuses the whole name: otherwise a multi-record name could let a
  // retrying client land on the internal one.
  if (!addrs.every((a) => isPublicAddress(a.address))) {
    return notPublic(
      nameNotPublic(bare),
      addrs.map((a) => a.address),
    );
  }
  const first = addrs[0] as LookupAddress;
  return { allowed: true, ...canonicalAddress(first.address) };
}

function errorCode(err: unknown): string {
  if (err && typeof err === 'object' && 'code' in err && typeof err.code === 'string') return err.code;
  return err instanceof Error ? err.message : 'lookup failed';
}
