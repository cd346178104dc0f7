import dns from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LookupFn } from '@render/egress-policy';

/** Starts `server` on a free port of 127.0.0.1; answers the port. */
export async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A loopback server nothing may reach: every connection and request it sees is in `hits`. */
export interface Canary {
  server: Server;
  port: number;
  hits: string[];
}

export async function startCanary(): Promise<Canary> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.end('canary');
  });
  server.on('connection', () => hits.push('connection'));
  return { server, port: await listen(server), hits };
}

/** Closes servers without waiting for the connections Chromium or the proxy keep alive. */
export function closeServers(...servers: Array<Server | undefined>): void {
  for (const server of servers) {
    server?.closeAllConnections();
    server?.close();
  }
}

/**
 * The egress proxy's resolver in tests: `names` point at loopback, localhost resolves as usual, and any other
 * name fails like NXDOMAIN, so nothing leaves the box.
 */
export function loopbackLookup(names: string[]): LookupFn {
  return async (hostname, options) => {
    if (names.includes(hostname)) return [{ address: '127.0.0.1', family: 4 }];
    if (hostname === 'localhost') return dns.promises.lookup(hostname, options);
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  };
}
