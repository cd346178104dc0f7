import type { PdfJobOptions } from '@render/contracts';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printPdf } from '../src/renderers/page/pdf-print.ts';
import { RenderError } from '../src/renderers/page/render-error.ts';
import { startTestPool, type TestPool } from './helpers/test-pool.ts';

// printPdf on a warm page of the generic pool, over a real Chromium (nothing here reaches the network:
// the proxy address is a closed port).

let pool: TestPool;

beforeAll(async () => {
  pool = await startTestPool('generic', 'http://127.0.0.1:9', 'pdf-print-test');
});

afterAll(async () => {
  await pool?.close();
});

const options = (extra: Partial<PdfJobOptions> = {}): PdfJobOptions => ({
  width: 816,
  height: 1056,
  margin: { top: 0, right: 0, bottom: 0, left: 0 },
  printBackground: true,
  fitToContent: false,
  ...extra,
});

const onPage = <T>(fn: (page: Page) => Promise<T>) => pool.cluster.run(({ page }) => fn(page));

const mediaBoxes = (bytes: Buffer) =>
  [...bytes.toString('latin1').matchAll(/\/MediaBox\s*\[\s*([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s*\]/g)].map((m) => [
    Math.round(Number(m[3])),
    Math.round(Number(m[4])),
  ]);

describe('printPdf', () => {
  it('fitToContent measures a standards-mode document in print media, then leaves the page in screen media at its viewport', async () => {
    const result = await onPage(async (page) => {
      await page.setViewport({ width: 640, height: 480 });
      // Taller in print than on screen: the measurement must be the printed layout's.
      await page.setContent(
        '<!doctype html><style>body{margin:0} div{height:300px} @media print { div { height: 700px } }</style><div></div>',
      );
      const pdf = await printPdf(page, options({ fitToContent: true }));
      const after = await page.evaluate(() => ({ print: matchMedia('print').matches, width: innerWidth, height: innerHeight }));
      return { pdf, after, viewport: page.viewport() };
    });
    expect([result.pdf.width, result.pdf.height]).toEqual([640, 700]);
    expect(mediaBoxes(result.pdf.bytes)).toEqual([[480, 525]]);
    expect(result.after).toEqual({ print: false, width: 640, height: 480 });
    expect(result.viewport).toMatchObject({ width: 640, height: 480 });
  });

  it('a page range past the end is a content failure (422, not retried)', async () => {
    const err = await onPage((page) =>
      page.setContent('<p>one page</p>').then(() => printPdf(page, options({ pageRanges: '4-5' })).catch((e: unknown) => e)),
    );
    expect(err).toBeInstanceOf(RenderError);
    expect((err as RenderError).retryable).toBe(false);
    expect((err as RenderError).message).toMatch(/pageRanges selects no page/);
  });

  it('prints the page size it is given, margins inside it', async () => {
    const pdf = await onPage((page) =>
      page.setContent('<p>x</p>').then(() => printPdf(page, options({ margin: { top: 48, right: 48, bottom: 48, left: 48 } }))),
    );
    expect(mediaBoxes(pdf.bytes)).toEqual([[612, 792]]);
    expect([pdf.width, pdf.height]).toEqual([816, 1056]);
  });
});
