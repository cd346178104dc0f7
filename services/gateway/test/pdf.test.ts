import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PdfLimits } from '@render/contracts';
import type { RenderWorkerHandle } from '@render/render-worker';
import { decodePng, near } from '@render/test-stack/images';
import { closeInOrder } from '@render/test-stack/teardown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pt, readPdf } from './helpers/pdf.ts';
import { startCanary, type TestServer } from './helpers/servers.ts';
import { startGateway, startWorker, type TestGateway, uniquePrefix } from './helpers/stack.ts';

// PDF output of the HTML and screenshot calls through the real stack: gateway, queue, worker, Chromium.
// One page per pool (RENDER_PAGES=1), so a PDF job and the image job after it share the same warm page.
let gateway: TestGateway;
let worker: RenderWorkerHandle;
let canary: TestServer;
let pages: { server: Server; origin: string };
/** What the allow-listed pages server was asked for. */
const served: string[] = [];

const HTML = '/api/html-to-img/convert';
const SCREENSHOT = '/api/screenshot/convert';
/** Three blocks, each forced onto its own printed page; no text (so no font) in the document itself. */
const THREE_PAGES = `<body style="margin:0">${['#f00', '#0f0', '#00f']
  .map((c) => `<div style="height:200px;background:${c};break-after:page"></div>`)
  .join('')}</body>`;
const BOX = '<body style="margin:0"><div style="width:300px;height:1234px;background:#0a0"></div></body>';

function page(req: IncomingMessage, res: ServerResponse) {
  const html = (body: string) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  served.push(String(req.url));
  if (req.url === '/long') return html('<body style="margin:0"><div style="height:3000px;background:#00f"></div></body>');
  return html('<body style="margin:0;background:#0f0"><p>page</p></body>');
}

beforeAll(async () => {
  canary = await startCanary();
  const server = createServer(page);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  pages = { server, origin: `http://127.0.0.1:${port}` };
  const prefix = uniquePrefix('pdf');
  worker = await startWorker({
    QUEUE_PREFIX: prefix,
    RENDER_QUEUES: 'html,screenshot',
    RENDER_PAGES: '1',
    RENDER_EGRESS_ALLOWLIST: `127.0.0.1:${port}`,
  });
  gateway = await startGateway({ QUEUE_PREFIX: prefix });
});

afterAll(async () => {
  await closeInOrder(gateway, worker, canary);
  pages?.server.closeAllConnections();
  await new Promise((resolve) => pages?.server.close(resolve));
});

async function pdf(route: string, body: Record<string, unknown>) {
  const res = await gateway.post(route, { format: 'pdf', ...body });
  const bytes = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`${res.status}: ${bytes.toString()}`);
  expect(res.headers.get('content-type')).toBe('application/pdf');
  expect(res.headers.get('content-disposition')).toBe('inline; filename="image.pdf"');
  return { bytes, ...readPdf(bytes) };
}

async function refused(route: string, body: Record<string, unknown>) {
  const res = await gateway.post(route, { format: 'pdf', ...body });
  return { status: res.status, ...((await res.json()) as { message: string; code: string }) };
}

const expectSize = (actual: [number, number] | undefined, expected: [number, number]) => {
  expect(actual).toBeDefined();
  expect(Math.abs((actual as [number, number])[0] - expected[0])).toBeLessThan(1);
  expect(Math.abs((actual as [number, number])[1] - expected[1])).toBeLessThan(1);
};

describe('HTML to PDF', () => {
  it('prints A4 portrait by default: a valid one-page PDF of 595×842 pt', async () => {
    const doc = await pdf(HTML, { html: '<p>Hello</p>' });
    expect(doc.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(doc.pages).toBe(1);
    expectSize(doc.sizes[0], [595.28, 841.89]);
  });

  it('counts pages, swaps the size in landscape, and takes custom sizes in any unit', async () => {
    const letter = await pdf(HTML, { html: THREE_PAGES, pageSize: 'Letter' });
    expect(letter.pages).toBe(3);
    for (const size of letter.sizes) expectSize(size, [612, 792]);
    const landscape = await pdf(HTML, { html: THREE_PAGES, pageSize: 'Letter', landscape: true });
    expectSize(landscape.sizes[0], [792, 612]);
    const custom = await pdf(HTML, { html: '<p>x</p>', pageWidth: '100mm', pageHeight: '4in' });
    expectSize(custom.sizes[0], [(100 / 25.4) * 72, 288]);
    const turned = await pdf(HTML, { html: '<p>x</p>', pageWidth: '100mm', pageHeight: '4in', landscape: true });
    expectSize(turned.sizes[0], [288, (100 / 25.4) * 72]);
  });

  it('keeps only the pages in pageRanges', async () => {
    expect((await pdf(HTML, { html: THREE_PAGES, pageRanges: '1, 3' })).pages).toBe(2);
    expect((await pdf(HTML, { html: THREE_PAGES, pageRanges: '2-' })).pages).toBe(2);
    expect((await pdf(HTML, { html: THREE_PAGES, pageRanges: '2-2' })).pages).toBe(1);
  });

  it('a page range past the end of the document is a clear 422, not a retry or a 5xx', async () => {
    const res = await gateway.post(HTML, { format: 'pdf', html: THREE_PAGES, pageRanges: '7-9' });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { message: string }).message).toBe(
      'Failed to generate PDF: pageRanges selects no page of the document (it has fewer pages)',
    );
  });

  it('fitToContent prints one page the size of the content, laid out at the viewport width', async () => {
    const doc = await pdf(HTML, { html: BOX, fitToContent: true, pageSize: 'A5', pageRanges: '3' });
    expect(doc.pages).toBe(1);
    expectSize(doc.sizes[0], [pt(800), pt(1234)]);
    const narrow = await pdf(HTML, { html: BOX, fitToContent: true, width: 400 });
    expectSize(narrow.sizes[0], [pt(400), pt(1234)]);
    const margins = await pdf(HTML, { html: BOX, fitToContent: true, width: 400, margin: { top: '10px', bottom: '20px', left: '1in' } });
    expectSize(margins.sizes[0], [pt(400 + 96), pt(1234 + 30)]);
    // A short document is not padded to the viewport's height.
    const short = await pdf(HTML, {
      html: '<body style="margin:0"><div style="height:150px;background:#f00"></div></body>',
      fitToContent: true,
    });
    expectSize(short.sizes[0], [pt(800), pt(150)]);
  });

  it('cuts a fitToContent page at 200 in', async () => {
    const doc = await pdf(HTML, {
      html: '<body style="margin:0"><div style="height:30000px;background:#00f"></div></body>',
      fitToContent: true,
    });
    expect(doc.pages).toBe(1);
    expectSize(doc.sizes[0], [pt(800), pt(PdfLimits.maxPageSidePx)]);
  });

  it('answers JSON with base64 when asked, with the page size in CSS pixels', async () => {
    const res = await gateway.post(HTML, { format: 'pdf', html: BOX, fitToContent: true, output: 'json' });
    expect(res.status).toBe(200);
    const json = (await res.json()) as { success: boolean; data: Record<string, unknown> & { image: string } };
    expect(json.data).toMatchObject({ format: 'pdf', mimeType: 'application/pdf', width: 800, height: 1234 });
    const bytes = Buffer.from(json.data.image, 'base64');
    expect(json.data.size).toBe(bytes.length);
    expect(readPdf(bytes).pages).toBe(1);
    const a4 = (await (await gateway.post(HTML, { format: 'pdf', html: '<p>x</p>', output: 'json' })).json()) as {
      data: Record<string, number>;
    };
    expect([a4.data.width, a4.data.height]).toEqual([794, 1123]);
  });

  it('prints header and footer templates (text in the margins), loading nothing from the network', async () => {
    const plain = await pdf(HTML, { html: THREE_PAGES, margin: { top: '1in', bottom: '1in' } });
    expect(plain.hasFont).toBe(false);
    const withTemplates = await pdf(HTML, {
      html: THREE_PAGES,
      margin: { top: '1in', bottom: '1in' },
      headerTemplate: `<div style="font-size:10px;width:100%;text-align:center"><span class="title"></span>
        <img src="${canary.origin}/header.png" width="10" height="10"><img src="${pages.origin}/header.png" width="10" height="10"></div>`,
      footerTemplate: '<div style="font-size:10px"><span class="pageNumber"></span> / <span class="totalPages"></span></div>',
    });
    expect(withTemplates.pages).toBe(3);
    expect(withTemplates.hasFont).toBe(true);
    // Text is drawn on every page (BT … ET in each page's content).
    expect(withTemplates.streams.filter((s) => /\bBT\b[\s\S]*\bET\b/.test(s)).length).toBeGreaterThanOrEqual(3);
    // Not even an allow-listed address is fetched: Chromium prints templates without loading anything.
    expect(canary.requests).toEqual([]);
    expect(served).not.toContain('/header.png');
    // Only a footer: the header is empty rather than Chromium's default (date and title).
    const footerOnly = await pdf(HTML, { html: THREE_PAGES, margin: { bottom: '1in' }, footerTemplate: '<span></span>' });
    expect(footerOnly.hasFont).toBe(false);
  });

  it('leaves the warm page as image jobs expect it (screen media, viewport)', async () => {
    const html = '<style>body{margin:0;background:#00ff00} @media print { body { background:#ff0000 } }</style><body></body>';
    await pdf(HTML, { html, fitToContent: true, width: 300 });
    const res = await gateway.post(HTML, { html, width: 200, height: 100 });
    expect(res.status).toBe(200);
    const img = decodePng(Buffer.from(await res.arrayBuffer()));
    expect([img.width, img.height]).toEqual([200, 100]);
    expect(near(img.pixel(100, 50), [0, 255, 0, 255])).toBe(true);
  });

  it('prints backgrounds by default and leaves them out with printBackground: false', async () => {
    const html = '<body style="margin:0;background:#00f"><div style="height:100px"></div></body>';
    const withBackground = await pdf(HTML, { html });
    const without = await pdf(HTML, { html, printBackground: false });
    const fills = (streams: string[]) => streams.some((s) => /0 0 1 rg/.test(s));
    expect(fills(withBackground.streams)).toBe(true);
    expect(fills(without.streams)).toBe(false);
  });

  it('image formats ignore the PDF fields', async () => {
    const res = await gateway.post(HTML, { html: '<p>x</p>', width: 100, height: 60, pageSize: 'A3', fitToContent: true, pageRanges: '2' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
  });
});

describe('PDF options: every bad input is a 400 that says what to fix', () => {
  const cases: Array<[string, Record<string, unknown>, string | RegExp]> = [
    ['an unknown page size', { pageSize: 'B5' }, 'pageSize must be one of: A4, Letter, Legal, A3, A5, Tabloid'],
    ['a width without a height', { pageWidth: '100mm' }, 'pageWidth and pageHeight must be given together'],
    [
      'a length without a unit',
      { pageWidth: '100', pageHeight: '100mm' },
      'pageWidth must be a length such as "210mm", "8.5in", "2cm" or "96px"',
    ],
    ['an em length', { margin: { top: '1em' } }, 'margin.top must be a length such as "210mm", "8.5in", "2cm" or "96px"'],
    ['a huge page', { pageWidth: '5000in', pageHeight: '11in' }, 'pageWidth must be between 1in and 200in (25.4mm and 5080mm)'],
    ['a tiny page', { pageWidth: '10mm', pageHeight: '11in' }, 'pageWidth must be between 1in and 200in (25.4mm and 5080mm)'],
    [
      'margins wider than the page',
      { margin: { left: '5in', right: '5in' } },
      "margin.left and margin.right must leave at least 0.5in of the page's width",
    ],
    [
      'margins taller than the page',
      { margin: { top: '20cm', bottom: '20cm' } },
      "margin.top and margin.bottom must leave at least 0.5in of the page's height",
    ],
    ['an unknown margin side', { margin: { middle: '1cm' } }, /margin/],
    ['margin not an object', { margin: '1cm' }, 'margin must be an object with top, right, bottom and left lengths'],
    ['a range that ends before it starts', { pageRanges: '3-1' }, 'pageRanges: the range "3-1" ends before it starts'],
    ['page zero', { pageRanges: '0-2' }, 'pageRanges: page numbers start at 1 and go up to 10000'],
    [
      'words in a range',
      { pageRanges: 'first' },
      'pageRanges must be page numbers and ranges separated by commas, such as "1-3, 5" or "2-"',
    ],
    ['a template too long', { headerTemplate: 'x'.repeat(10_001) }, 'headerTemplate must be at most 10000 characters'],
    ['a template that is not text', { footerTemplate: 12 }, 'footerTemplate must be a string of HTML'],
    ['a flag that is not a boolean', { landscape: 'yes' }, 'landscape must be true or false'],
    ['fitToContent not a boolean', { fitToContent: 1 }, 'fitToContent must be true or false'],
  ];
  for (const [name, body, message] of cases) {
    it(name, async () => {
      const answer = await refused(HTML, { html: '<p>x</p>', ...body });
      expect(answer.status).toBe(400);
      expect(answer.code).toBe('VALIDATION_ERROR');
      if (typeof message === 'string') expect(answer.message).toBe(message);
      else expect(answer.message).toMatch(message);
    });
  }

  it('an unknown format names pdf among the choices', async () => {
    const answer = await refused(HTML, { html: '<p>x</p>', format: 'tiff' });
    expect(answer.message).toBe('format must be one of: png, jpeg, webp, avif, pdf');
  });
});

describe('web page to PDF (screenshot call)', () => {
  it('prints a long page on as many A4 pages as it takes', async () => {
    const doc = await pdf(SCREENSHOT, { url: `${pages.origin}/long` });
    // 3000 CSS px laid out at the A4 paper width: several pages.
    expect(doc.pages).toBeGreaterThanOrEqual(3);
    for (const size of doc.sizes) expectSize(size, [595.28, 841.89]);
  });

  it('fitToContent gives one page the size of the page at the viewport width', async () => {
    const doc = await pdf(SCREENSHOT, { url: `${pages.origin}/long`, fitToContent: true });
    expect(doc.pages).toBe(1);
    expectSize(doc.sizes[0], [pt(1280), pt(3000)]);
  });

  it('JSON answers work for screenshots too', async () => {
    const res = await gateway.post(SCREENSHOT, {
      format: 'pdf',
      url: `${pages.origin}/short`,
      outputType: 'json',
      pageSize: 'Letter',
      landscape: true,
    });
    expect(res.status).toBe(200);
    const json = (await res.json()) as { data: Record<string, unknown> & { image: string } };
    expect(json.data).toMatchObject({ format: 'pdf', mimeType: 'application/pdf', width: 1056, height: 816 });
    expect(readPdf(Buffer.from(json.data.image, 'base64')).pages).toBe(1);
  });

  it('refuses selector with pdf, and bad PDF options, with a 400', async () => {
    const selector = await refused(SCREENSHOT, { url: `${pages.origin}/short`, selector: 'p' });
    expect(selector).toMatchObject({ status: 400, message: 'selector captures an element as an image: it cannot be used with format pdf' });
    const range = await refused(SCREENSHOT, { url: `${pages.origin}/short`, pageRanges: '2-1' });
    expect(range).toMatchObject({ status: 400, message: 'pageRanges: the range "2-1" ends before it starts' });
  });

  it('a loopback address is still refused for PDF', async () => {
    const res = await gateway.post(SCREENSHOT, { format: 'pdf', url: `${canary.origin}/` });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { message: string }).message).toMatch(/^Failed to capture screenshot: the address is not allowed/);
    expect(canary.requests).toEqual([]);
  });
});
