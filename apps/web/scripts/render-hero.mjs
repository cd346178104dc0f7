// Renders the landing demo's sample (en and fr) once into public/hero/demo-<lang>.webp, which the hero shows
// until the visitor presses Render. Run it after changing the sample or its heading:
//   node scripts/render-hero.mjs        (Debian's Chromium; CHROMIUM_PATH overrides)
// The render worker does the same for an html job: the markup set as the page's document in a viewport of the
// requested size, captured by Chromium; WebP at quality 90 keeps it small.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { DEMO_SIZE, demoHtml } from '../src/features/landing/demo-sample.ts';

const root = join(import.meta.dirname, '..');
const out = join(root, 'public', 'hero');
mkdirSync(out, { recursive: true });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  for (const lang of ['en', 'fr']) {
    const catalog = JSON.parse(readFileSync(join(root, 'src', 'i18n', 'locales', lang, 'landing.json'), 'utf8'));
    const page = await browser.newPage({ viewport: DEMO_SIZE, locale: lang });
    await page.setContent(demoHtml(catalog.demo.sampleHeading, lang), { waitUntil: 'load' });
    const cdp = await page.context().newCDPSession(page);
    const { data } = await cdp.send('Page.captureScreenshot', { format: 'webp', quality: 90 });
    const file = join(out, `demo-${lang}.webp`);
    writeFileSync(file, Buffer.from(data, 'base64'));
    console.log(`${file}: ${(Buffer.from(data, 'base64').length / 1024).toFixed(1)} KB`);
    await page.close();
  }
} finally {
  await browser.close();
}
