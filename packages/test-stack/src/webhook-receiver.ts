import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A delivery as the receiver got it: the path, the `X-Render-Signature` header and the raw body. */
export interface ReceivedWebhook {
  path: string;
  signature: string;
  body: string;
}

/**
 * A webhook receiver on 127.0.0.1 (allow-list its port for the worker and the gateway). It answers 200, or for
 * a path given in `plan` its planned statuses in turn (a failing receiver, to see retries).
 */
export async function startWebhookReceiver() {
  const received: ReceivedWebhook[] = [];
  const plan = new Map<string, number[]>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, signature: String(req.headers['x-render-signature'] ?? ''), body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(plan.get(path)?.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    received,
    plan,
    port,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
