import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The local pages of the screenshot phase, served by the bench's page server (formats.ts) and captured both
 * by the stack and by a hand-written Puppeteer script (raw.ts `openRawScreenshots`).
 */

export const SHOT_WIDTH = 800;
export const SHOT_HEIGHT = 600;
/** Screens of the full page: its height is SHOT_HEIGHT × this. */
export const FULL_PAGE_SCREENS = 5;
const LAZY_IMAGES = 10;

const STYLE = `body{margin:0;font-family:sans-serif;background:#fff}header{background:#1e293b;color:#fff;padding:24px 48px;font-size:28px}
main{padding:48px;display:grid;grid-template-columns:repeat(3,1fr);gap:24px}.card{height:180px;border-radius:12px;background:#e2e8f0}`;

const PLAIN = `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title><style>${STYLE}</style></head>
<body><header>Bench shop</header><main>${'<div class="card"></div>'.repeat(6)}</main></body></html>`;

/**
 * The same page with OneTrust's markup, as the platform injects it: one of the consent platforms autoconsent
 * knows, whose "Reject All" it clicks.
 */
const BANNER = `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title><style>${STYLE}</style></head>
<body><header>Bench shop</header><main>${'<div class="card"></div>'.repeat(6)}</main>
<div id="onetrust-consent-sdk">
  <div id="onetrust-banner-sdk" role="region" style="position:fixed;left:0;right:0;bottom:0;height:180px;background:#0f172a;color:#fff;z-index:1000;padding:16px">
    <p>We use cookies to personalise content and ads.</p>
    <button id="onetrust-accept-btn-handler">Accept All Cookies</button>
    <button id="onetrust-reject-all-handler" onclick="document.getElementById('onetrust-consent-sdk').remove()">Reject All</button>
  </div>
</div></body></html>`;

/** Five screens with lazy images spread down them: most are beyond what Chromium loads without a scroll. */
const LAZY = (() => {
  const total = SHOT_HEIGHT * FULL_PAGE_SCREENS;
  const gap = Math.floor(total / LAZY_IMAGES) - 200;
  const images = Array.from(
    { length: LAZY_IMAGES },
    (_, i) => `<img loading="lazy" src="/img/${i}.svg" width="400" height="200" alt="" style="display:block;margin:0 auto ${gap}px">`,
  ).join('');
  return `<!doctype html><html><head><meta charset="utf-8"><title>Gallery</title><style>body{margin:0;background:#fff}
.page{height:${total}px;overflow:hidden}</style></head><body><div class="page">${images}</div></body></html>`;
})();

const imageSvg = (i: number) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="200"><rect width="400" height="200" fill="hsl(${(i * 36) % 360} 70% 50%)"/></svg>`;

/** Answers the phase's pages; false when the path is not one of them. */
export function serveScreenshotPage(req: IncomingMessage, res: ServerResponse): boolean {
  const html = (body: string) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  const image = /^\/img\/(\d+)\.svg$/.exec(req.url ?? '');
  if (image) {
    res.writeHead(200, { 'content-type': 'image/svg+xml', 'cache-control': 'no-store' }).end(imageSvg(Number(image[1])));
    return true;
  }
  switch (req.url) {
    case '/shot/plain':
      html(PLAIN);
      return true;
    case '/shot/banner':
      html(BANNER);
      return true;
    case '/shot/lazy':
      html(LAZY);
      return true;
    default:
      return false;
  }
}

export interface ScreenshotCase {
  name: string;
  path: string;
  fullPage: boolean;
  /** The captured height (CSS px = device px here): the viewport's, or the full page's. */
  height: number;
  /** The goal for this case: stack p50 ÷ raw p50. */
  goal: number;
}

export const SCREENSHOT_CASES: ScreenshotCase[] = [
  { name: 'page without banner', path: '/shot/plain', fullPage: false, height: SHOT_HEIGHT, goal: 1.5 },
  { name: 'page with banner', path: '/shot/banner', fullPage: false, height: SHOT_HEIGHT, goal: 2 },
  {
    name: `full page, ${FULL_PAGE_SCREENS} screens, lazy images`,
    path: '/shot/lazy',
    fullPage: true,
    height: SHOT_HEIGHT * FULL_PAGE_SCREENS,
    goal: 2,
  },
];
