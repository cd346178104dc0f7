import puppeteer from 'puppeteer-core';
import { chromiumLaunchOptions } from './src/browser/chromium-args.ts';

const html =
  '<!doctype html><html><head><meta charset="utf-8"><style>body{margin:0;padding:24px;font-family:sans-serif;background:#fff}.box{width:240px;height:160px;background:#e11d48;border-radius:8px}h1{margin:16px 0 0;font-size:40px;color:#111}</style></head><body><div class="box"></div><h1>Render bench</h1></body></html>';
const b = await puppeteer.launch(
  chromiumLaunchOptions({ executablePath: '/usr/bin/chromium-headless-shell', sandbox: 'auto', proxyUrl: 'http://127.0.0.1:9' }),
);
const pages = await Promise.all(
  [0, 1, 2, 3].map(async () => {
    const p = await b.newPage();
    await p.setJavaScriptEnabled(false);
    await p.setViewport({ width: 800, height: 600 });
    return p;
  }),
);
async function bench(label: string, job: (p: any, i: number) => Promise<void>, seq = false) {
  let n = 0;
  const warm = Date.now() + 1000;
  const end = warm + 5000;
  const lat: number[] = [];
  await Promise.all(
    (seq ? pages.slice(0, 1) : pages).map(async (p, i) => {
      while (Date.now() < end) {
        const t = performance.now();
        await job(p, i);
        if (Date.now() > warm) {
          n++;
          lat.push(performance.now() - t);
        }
      }
    }),
  );
  lat.sort((a, c) => a - c);
  console.log(label, seq ? 'seq' : 'x4', (n / 5).toFixed(1), 'renders/s', 'p50', lat[lat.length >> 1]!.toFixed(1));
}
const pup = async (p: any) => {
  await p.setContent(html, { waitUntil: 'load', timeout: 0 });
  await p.screenshot({ type: 'png', optimizeForSpeed: true, captureBeyondViewport: false });
};
const sessions = await Promise.all(
  pages.map(async (p) => {
    const s = await p.createCDPSession();
    const { frameTree } = await s.send('Page.getFrameTree');
    return { s, frameId: frameTree.frame.id };
  }),
);
const cdp = async (_p: any, i: number) => {
  const { s, frameId } = sessions[i]!;
  await s.send('Page.setDocumentContent', { frameId, html });
  await s.send('Page.captureScreenshot', { format: 'png', optimizeForSpeed: true });
};
await bench('puppeteer', pup);
await bench('cdp', cdp);
await bench('puppeteer', pup);
await bench('cdp', cdp);
await bench('puppeteer', pup, true);
await bench('cdp', cdp, true);
await b.close();
