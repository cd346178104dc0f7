import { writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium-headless-shell' });
const path = process.argv[2] ?? '/about';
const ctx = await browser.newContext({ locale: 'en-US', viewport: { width: 390, height: 844 } });
const page = await ctx.newPage();
let server = '';
await page.route('**' + path, async (route) => {
  const res = await route.fetch();
  const body = await res.text();
  server = /<div id="root">([\s\S]*)<\/div>\s*<\/body>/.exec(body)[1];
  await route.fulfill({ response: res, body: body.replace(/ data-prerendered="\w+"/, '') });
});
await page.goto('http://127.0.0.1:3917' + path, { waitUntil: 'networkidle' });
const client = await page.evaluate(() => document.getElementById('root').innerHTML);
const norm = (h) => h.replace(/<!--[^>]*-->/g, '').replace(/></g, '>\n<');
writeFileSync('/tmp/front2/server.html', norm(server));
writeFileSync('/tmp/front2/client.html', norm(client));
await browser.close();
