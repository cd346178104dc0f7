import net from 'node:net';

/**
 * An early refusal of webhooks at literal non-public addresses (`http://10.0.0.1/…`, `http://[::1]/…`), so the
 * caller gets a 400 instead of a 202 and a refused delivery. Names are not resolved here: the worker checks
 * the address a name resolves to when it delivers (the authoritative check, with the same allowlist).
 */
const blocked = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(network, prefix, 'ipv6');

const defaultPort = (url: URL) => (url.port === '' ? (url.protocol === 'https:' ? '443' : '80') : url.port);

/** `host:port,[v6]:port` as the workers' RENDER_EGRESS_ALLOWLIST, in the URL parser's spelling of each host. */
export function parseWebhookAllowlist(raw: string): Set<string> {
  const out = new Set<string>();
  for (const entry of raw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    try {
      const url = new URL(`http://${entry}`);
      out.add(`${url.hostname}:${url.port || '80'}`);
    } catch {
      throw new Error(`Invalid RENDER_EGRESS_ALLOWLIST entry "${entry}": expected host:port or [ipv6]:port`);
    }
  }
  return out;
}

/** Why a webhook at a literal address is refused now, or null (a name, a public address, or allow-listed). */
export function literalWebhookRefusal(url: URL, allowlist: Set<string>): string | null {
  if (allowlist.has(`${url.hostname}:${defaultPort(url)}`)) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const family = net.isIP(host);
  // The URL parser has already turned 2130706433, 0x7f.1 and the like into dotted IPv4.
  const refused =
    family === 4
      ? blocked.check(host, 'ipv4')
      : family === 6
        ? blocked.check(host, 'ipv6')
        : host === 'localhost' || host.endsWith('.localhost');
  return refused ? `webhook must not point to a private, loopback or reserved address (${url.hostname})` : null;
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
