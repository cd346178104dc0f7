import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Forwards to the account service, recording each call; `fail` picks the paths it answers 503 itself. */
export async function recordingProxy(target: string, fail: (path: string) => boolean = () => false) {
  const calls: Array<{ path: string; body: Record<string, unknown> }> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks);
      const path = req.url ?? '';
      calls.push({ path, body: raw.length ? JSON.parse(raw.toString('utf8')) : {} });
      if (fail(path)) {
        res.writeHead(503, { 'content-type': 'application/json' }).end('{"success":false,"code":"SERVICE_UNAVAILABLE","message":"down"}');
        return;
      }
      const headers: Record<string, string> = {};
      for (const name of ['content-type', 'authorization', 'x-internal-token']) {
        const value = req.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      const upstream = await fetch(`${target}${path}`, { method: req.method, headers, body: raw.length ? raw : undefined });
      res
        .writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' })
        .end(Buffer.from(await upstream.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, calls, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

export type RecordingProxy = Awaited<ReturnType<typeof recordingProxy>>;
