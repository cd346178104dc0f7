import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PNG } from 'pngjs';

export interface TestServer {
  port: number;
  origin: string;
  requests: string[];
  close(): Promise<void>;
}

async function listen(server: Server, requests: string[]): Promise<TestServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Counts every request and connection it sees; an egress test passes only if it stays at zero. */
export async function startCanary(): Promise<TestServer> {
  const requests: string[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.end('canary');
  });
  server.on('connection', () => requests.push('connection'));
  server.on('upgrade', (req, socket) => {
    requests.push(`upgrade ${req.url}`);
    socket.destroy();
  });
  return listen(server, requests);
}

export function solidPng(width: number, height: number, rgb: [number, number, number]): Buffer {
  const png = new PNG({ width, height });
  for (let i = 0; i < width * height; i++) {
    png.data[i * 4] = rgb[0];
    png.data[i * 4 + 1] = rgb[1];
    png.data[i * 4 + 2] = rgb[2];
    png.data[i * 4 + 3] = 255;
  }
  return PNG.sync.write(png);
}

/** An allow-listed asset server: a blue PNG and a stylesheet that paints the body green. */
export async function startAssetServer(): Promise<TestServer> {
  const requests: string[] = [];
  const blue = solidPng(50, 50, [0, 0, 255]);
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    if (req.url === '/blue.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(blue);
    if (req.url === '/green.css') return res.writeHead(200, { 'content-type': 'text/css' }).end('body{background:#00ff00}');
    res.writeHead(404).end();
  });
  return listen(server, requests);
}
