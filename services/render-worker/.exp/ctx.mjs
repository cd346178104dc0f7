import puppeteer from 'puppeteer-core';
import http from 'node:http';
const html = `<!doctype html><html><body style="font-family:sans-serif"><h1>Hello</h1><p>${'text '.repeat(200)}</p></body></html>`;
const server = http.createServer((q, r) => { r.writeHead(200, {'content-type':'text/html'}); r.end(html); }).listen(0);
const url = `http://127.0.0.1:${server.address().port}/`;
const browser = await puppeteer.launch({ executablePath: process.env.CHROMIUM_PATH, headless: 'shell', pipe: true, args: ['--no-sandbox','--disable-gpu','--hide-scrollbars'] });
const N = 25;
const p50 = (a) => a.sort((x,y)=>x-y)[Math.floor(a.length/2)];
async function shot(page) { await page.goto(url, { waitUntil: 'load' }); await page.screenshot(); }
const modes = {
  raw: async (st) => { st.page ??= await browser.newPage(); await page800(st.page); await shot(st.page); },
  fresh: async (st) => { const c = await browser.createBrowserContext(); const p = await c.newPage(); await page800(p); await shot(p); await c.close(); },
  ctxNewPage: async (st) => { st.ctx ??= await browser.createBrowserContext(); if (st.page) await st.page.close(); st.page = await st.ctx.newPage(); await page800(st.page); await shot(st.page); },
  ctxNewPageBefore: async (st) => { st.ctx ??= await browser.createBrowserContext(); const old = st.page; st.page = await st.ctx.newPage(); if (old) await old.close(); await page800(st.page); await shot(st.page); },
  samePageBlank: async (st) => { st.ctx ??= await browser.createBrowserContext(); st.page ??= await st.ctx.newPage(); await st.page.goto('about:blank'); await page800(st.page); await shot(st.page); },
};
async function page800(p) { await p.setViewport({ width: 800, height: 600 }); }
for (let round = 0; round < 2; round++) for (const [name, fn] of Object.entries(modes)) {
  const st = {}; for (let i = 0; i < 5; i++) await fn(st);
  const t = []; for (let i = 0; i < N; i++) { const s = performance.now(); await fn(st); t.push(performance.now() - s); }
  console.log(round, name, p50(t).toFixed(1));
}
await browser.close(); server.close();
