import net from 'node:net';

/** A command in RESP, Redis's wire protocol: what the bench sends without a Redis client dependency. */
export const resp = (parts: string[]) => `*${parts.length}\r\n${parts.map((p) => `$${Buffer.byteLength(p)}\r\n${p}\r\n`).join('')}`;

/** A TCP connection to the Redis at `url` (host and port only: AUTH and SELECT are the caller's). */
export const connectRedis = (url: URL): net.Socket =>
  net.connect({ host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 6379) });

/**
 * Reads the socket as UTF-8 and calls `onLine` with every CRLF-terminated line it receives, in order;
 * `onLine` returning 'stop' leaves the rest of that chunk unread.
 */
export function onReplyLines(socket: net.Socket, onLine: (line: string) => unknown): void {
  let buffered = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    let nl = buffered.indexOf('\r\n');
    while (nl >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 2);
      if (onLine(line) === 'stop') return;
      nl = buffered.indexOf('\r\n');
    }
  });
}
