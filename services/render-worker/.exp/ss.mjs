import puppeteer from 'puppeteer-core';
import http from 'node:http';
let hits = 0;
const server = http.createServer((q, r) => { if (q.url === '/c.js') { hits++; r.writeHead(200, {'content-type':'text/javascript','cache-control':'max-age=3600'}); r.end('window.c=1'); return; } r.writeHead(200, {'content-type':'text/html'}); r.end('<script src="/c.js"></script><p>x'); }).listen(0);
const url = `http://127.0.0.1:${server.address().port}/`;
const origin = new URL(url).origin;
const browser = await puppeteer.launch({ executablePath: process.env.CHROMIUM_PATH, headless: 'shell', pipe: true, args: ['--no-sandbox','--disable-gpu'] });
const ctx = await browser.createBrowserContext();
const page = await ctx.newPage();
const read = () => page.evaluate(() => ({ ss: sessionStorage.getItem('k'), ls: localStorage.getItem('k'), name: window.name, hist: history.length }));
for (const mode of ['none', 'origin', 'storageKey', 'domstorage-before']) {
  await page.goto(url); await page.evaluate(() => { sessionStorage.setItem('k', 's'); localStorage.setItem('k', 'l'); window.name = 'n'; });
  const s = await page.createCDPSession();
  if (mode === 'domstorage-before') { console.log(await s.send('DOMStorage.clear', { storageId: { securityOrigin: origin, isLocalStorage: false } }).catch(e => e.message)); }
  await page.goto('about:blank');
  await s.send('Page.resetNavigationHistory').catch(e => console.log('rnh', e.message));
  await s.send('Network.clearBrowserCache');
  if (mode === 'origin' || mode.startsWith('dom')) console.log(await s.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' }).catch(e => e.message));
  if (mode === 'storageKey') console.log(await s.send('Storage.clearDataForStorageKey', { storageKey: origin + '/', storageTypes: 'all' }).catch(e => e.message));
  await s.detach();
  const h = hits;
  await page.goto(url);
  console.log(mode, await read(), 'cachedjs refetched:', hits > h);
  await page.evaluate(() => { sessionStorage.clear(); localStorage.clear(); window.name = ''; });
}
await browser.close(); server.close();
