import type { RenderWorkerHandle } from '@render/render-worker';
import { decodePng, near } from '@render/test-stack/images';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, startWorker, type TestGateway, uniquePrefix } from './helpers/stack.ts';

// Content that attacks the renderer rather than the network: each must end in a clear 4xx within the
// gateway's deadline, and the same worker must then render normally.
const RENDER_TIMEOUT_MS = 3_000;
const DEADLINE_MS = 20_000;
const RED_BOX = '<body style="margin:0;background:#fff"><div style="width:100px;height:80px;background:#ff0000"></div></body>';

let gateway: TestGateway;
let worker: RenderWorkerHandle;

beforeAll(async () => {
  const prefix = uniquePrefix('hostile');
  worker = await startWorker({
    QUEUE_PREFIX: prefix,
    RENDER_QUEUES: 'html',
    RENDER_PAGES: '1',
    RENDER_TIMEOUT_MS: String(RENDER_TIMEOUT_MS),
  });
  gateway = await startGateway({ QUEUE_PREFIX: prefix, RENDER_DEADLINE_MS: String(DEADLINE_MS) });
});

afterAll(async () => {
  await gateway?.close();
  await worker?.close();
});

const convert = (html: string) => gateway.post('/api/html-to-img/convert', { html, width: 200, height: 200 });

async function expectRedBox() {
  const res = await convert(RED_BOX);
  expect(res.status).toBe(200);
  const img = decodePng(Buffer.from(await res.arrayBuffer()));
  expect(near(img.pixel(10, 10), [255, 0, 0, 255])).toBe(true);
  expect(near(img.pixel(150, 150), [255, 255, 255, 255])).toBe(true);
}

describe('hostile page content', () => {
  it.each([
    ['an endless loop', '<script>for (;;) {}</script>'],
    ['a memory bomb', '<script>let a = []; for (;;) a.push(new Array(1e6).fill(1));</script>'],
    [
      'an enormous DOM built by script',
      '<body><script>for (let i = 0; i < 1e6; i++) { const d = document.createElement("div"); d.textContent = "x" + i; document.body.appendChild(d); }</script></body>',
    ],
    ['5 MB of nested markup', `<body>${'<div><span>x'.repeat(400_000)}</body>`],
  ])('%s ends in a clear 4xx within the deadline, then the worker renders normally', async (_label, html) => {
    const started = Date.now();
    const res = await convert(html);
    const elapsed = Date.now() - started;
    const body = (await res.json()) as { success: boolean; code: string; message: string };
    expect(res.status, body.message).toBe(422);
    expect(body.code).toBe('RENDER_FAILED');
    expect(body.message).toMatch(/^(Rendering timed out after \d+ ms|Failed to generate image: the page crashed)/);
    expect(elapsed).toBeLessThan(DEADLINE_MS);
    await expectRedBox();
  });
});
