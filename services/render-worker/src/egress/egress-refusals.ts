/**
 * Recent targets the egress proxy refused or could not reach. Chromium reports every failed CONNECT (an
 * https page, whatever the cause) as the same net::ERR_TUNNEL_CONNECTION_FAILED and never shows the proxy's
 * answer, so a renderer looks the reason up here to tell "not allowed" from "not resolved" and "not reachable".
 *
 * Process-wide on purpose: the proxy and the renderers of a worker share a process but not an object. An
 * entry says only how the worker's own policy judged a host:port, which is the same for every job.
 */
/** blocked: by the policy; unresolved: the name did not resolve (said as such, not as a refusal); unreachable: no connection. */
export type EgressRefusalKind = 'blocked' | 'unresolved' | 'unreachable';

export interface EgressRefusal {
  host: string;
  port: number;
  kind: EgressRefusalKind;
  reason: string;
  at: number;
}

const MAX_ENTRIES = 256;
const MAX_AGE_MS = 120_000;
const recent: EgressRefusal[] = [];

/** `[::1]` and `::1`, `Example.com.` and `example.com` are the same target. */
export function refusalHostKey(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
}

export function recordEgressRefusal(entry: Omit<EgressRefusal, 'at'>): void {
  recent.push({ ...entry, host: refusalHostKey(entry.host), at: Date.now() });
  if (recent.length > MAX_ENTRIES) recent.splice(0, recent.length - MAX_ENTRIES);
}

/** The newest refusal of host:port at or after `since` (ms epoch). */
export function findEgressRefusal(host: string, port: number, since: number): EgressRefusal | undefined {
  const key = refusalHostKey(host);
  const oldest = Math.max(since, Date.now() - MAX_AGE_MS);
  for (let i = recent.length - 1; i >= 0; i--) {
    const entry = recent[i]!;
    if (entry.at < oldest) break;
    if (entry.host === key && entry.port === port) return entry;
  }
  return undefined;
}
