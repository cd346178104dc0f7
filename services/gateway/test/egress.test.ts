import type { RenderWorkerHandle } from '@render/render-worker';
import { decodePng, near } from '@render/test-stack/images';
import { closeInOrder } from '@render/test-stack/teardown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAssetServer, startCanary, type TestServer } from './helpers/servers.ts';
import { startGateway, startWorker, type TestGateway, uniquePrefix } from './helpers/stack.ts';

let gateway: TestGateway;
let worker: RenderWorkerHandle;
let canary: TestServer;
let assets: TestServer;

beforeAll(async () => {
  canary = await startCanary();
  assets = await startAssetServer();
  const prefix = uniquePrefix('egress');
  // Only the asset server is allow-listed; the canary is an ordinary loopback service a page must not reach.
  worker = await startWorker({ QUEUE_PREFIX: prefix, RENDER_EGRESS_ALLOWLIST: `127.0.0.1:${assets.port}` });
  gateway = await startGateway({ QUEUE_PREFIX: prefix });
});

afterAll(async () => {
  await closeInOrder(gateway, worker, canary, assets);
});

const render = async (html: string, extra: Record<string, unknown> = {}) => {
  const res = await gateway.post('/api/html-to-img/convert', { html, width: 200, height: 200, ...extra });
  expect(res.status).toBe(200);
  return decodePng(Buffer.from(await res.arrayBuffer()));
};

const settle = () => new Promise((r) => setTimeout(r, 500));

describe('page egress policy', () => {
  it('loads allow-listed images and stylesheets (the policy is not simply "block everything")', async () => {
    const img = await render(
      `<head><link rel="stylesheet" href="${assets.origin}/green.css"></head><body style="margin:0"><img src="${assets.origin}/blue.png" style="display:block"></body>`,
    );
    expect(near(img.pixel(10, 10), [0, 0, 255, 255])).toBe(true);
    expect(near(img.pixel(150, 150), [0, 255, 0, 255])).toBe(true);
    expect(assets.requests).toEqual(expect.arrayContaining(['GET /blue.png', 'GET /green.css']));
  });

  it.each(['127.0.0.1', 'localhost', '[::1]', '2130706433', '0x7f000001', '[::ffff:127.0.0.1]'])(
    'no request reaches a loopback service addressed as %s',
    async (host) => {
      const base = `http://${host}:${canary.port}`;
      const html = `<!doctype html><html><head>
        <link rel="stylesheet" href="${base}/link.css">
        <style>@import url("${base}/import.css"); body { background-image: url("${base}/bg.png"); }</style>
      </head><body>
        <img src="${base}/img.png">
        <iframe src="${base}/frame"></iframe>
        <script>
          fetch("${base}/fetch").catch(() => {});
          try { new WebSocket("${base.replace('http', 'ws')}/ws"); } catch (e) {}
          navigator.sendBeacon && navigator.sendBeacon("${base}/beacon", "x");
        </script>
      </body></html>`;
      await render(html);
      await settle();
      expect(canary.requests).toEqual([]);
    },
  );

  it('a page navigating itself to a loopback address reaches nothing', async () => {
    await render(`<body style="background:#fff"><script>location = "http://127.0.0.1:${canary.port}/navigate";</script></body>`);
    await settle();
    expect(canary.requests).toEqual([]);
  });

  it('a file: iframe shows nothing of the local file', async () => {
    const img = await render(
      '<body style="margin:0;background:#fff"><iframe src="file:///etc/hostname" style="border:0;width:200px;height:200px"></iframe></body>',
    );
    for (let y = 0; y < 200; y += 4) {
      for (let x = 0; x < 200; x += 4) expect(img.pixel(x, y)).toEqual([255, 255, 255, 255]);
    }
  });

  it('SVG scripts and external references in an SVG never run or load', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100" onload="fetch('http://127.0.0.1:${canary.port}/onload')">
      <script>fetch("http://127.0.0.1:${canary.port}/svg-script")</script>
      <image href="http://127.0.0.1:${canary.port}/svg-image.png" width="100" height="100"/>
      <rect width="10" height="10" fill="#f00"/>
    </svg>`;
    const res = await gateway.post('/api/svg-to-img/convert', { svg, width: 100, height: 100 });
    expect(res.status).toBe(200);
    await settle();
    expect(canary.requests).toEqual([]);
  });
});
