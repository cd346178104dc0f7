import { type PdfJobOptions, PdfLimits } from '@render/contracts';
import type { Page, PDFOptions } from 'puppeteer-core';
import { ProtocolError } from 'puppeteer-core';
import { RenderError } from './render-error.ts';

export interface PrintedPdf {
  bytes: Buffer;
  /** The (first) page's size in CSS pixels. */
  width: number;
  height: number;
}

/** Chromium's printToPDF refusals that the options or the content cause (not the machinery): a 422, not a retry. */
const CONTENT_REFUSALS = /page range|content area is empty|invalid print parameters|print.*(?:failed|error)/i;

/**
 * The document in `page` as a PDF, already loaded (HTML set, or a web page navigated). Page size, margins
 * and templates come resolved from the gateway; `fitToContent` measures the document (in print media, at
 * the viewport's width) and prints one page of that size.
 *
 * The print emulation used to measure is undone before returning, so a warm page is left as the next
 * (image) job expects it; the viewport is never changed. Header and footer templates are printed by
 * Chromium's print compositor with scripts off; anything they would load goes through the egress proxy
 * like every other request of the browser.
 */
export async function printPdf(page: Page, options: PdfJobOptions): Promise<PrintedPdf> {
  let { width, height } = options;
  const { margin } = options;
  const templates = options.headerTemplate !== undefined || options.footerTemplate !== undefined;
  const pdfOptions: PDFOptions = {
    printBackground: options.printBackground,
    margin: { top: `${margin.top}px`, right: `${margin.right}px`, bottom: `${margin.bottom}px`, left: `${margin.left}px` },
    displayHeaderFooter: templates,
    // An empty template would print Chromium's default (date and title, or URL and page numbers).
    headerTemplate: templates ? options.headerTemplate || '<span></span>' : '',
    footerTemplate: templates ? options.footerTemplate || '<span></span>' : '',
    // withDeadline owns the deadline.
    timeout: 0,
  };
  let emulated = false;
  try {
    if (options.fitToContent) {
      emulated = true;
      await page.emulateMediaType('print');
      const content = await contentSize(page);
      width = clampSide(content.width + margin.left + margin.right);
      height = clampSide(content.height + margin.top + margin.bottom);
      // The measured size is the page's, so there is one page; rounding must not leave a sliver on a second.
      pdfOptions.pageRanges = '1';
    } else if (options.pageRanges) {
      pdfOptions.pageRanges = options.pageRanges;
    }
    pdfOptions.width = `${width}px`;
    pdfOptions.height = `${height}px`;
    const pdf = await print(page, pdfOptions);
    return { bytes: Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength), width: Math.round(width), height: Math.round(height) };
  } finally {
    // Back to screen media for the next job on this page (a failed job's page is retired anyway).
    if (emulated) await page.emulateMediaType().catch(() => undefined);
  }
}

async function print(page: Page, pdfOptions: PDFOptions): Promise<Uint8Array> {
  try {
    return await page.pdf(pdfOptions);
  } catch (err) {
    if (err instanceof ProtocolError && CONTENT_REFUSALS.test(err.message)) {
      const pageRange = /page range/i.test(err.message);
      throw new RenderError(
        pageRange
          ? 'Failed to generate PDF: pageRanges selects no page of the document (it has fewer pages)'
          : 'Failed to generate PDF: the page size and margins leave nothing to print',
        false,
        { cause: err },
      );
    }
    throw err;
  }
}

const clampSide = (px: number) => Math.min(PdfLimits.maxPageSidePx, Math.max(PdfLimits.minPageSidePx, Math.ceil(px)));

/**
 * The laid-out document's size in CSS pixels: its scroll size when it overflows the viewport, otherwise
 * the root element's own box, or in quirks mode the body's contents (a short document is not padded to
 * the viewport's height). Page script could skew this, but only within the page-size bounds.
 */
async function contentSize(page: Page): Promise<{ width: number; height: number }> {
  const size = await page.evaluate(`(() => {
    const root = document.documentElement;
    if (!root) return { width: innerWidth, height: 0 };
    const box = root.getBoundingClientRect();
    const width = Math.max(root.scrollWidth, box.width);
    if (root.scrollHeight > innerHeight) return { width, height: root.scrollHeight };
    const body = document.body;
    // In quirks mode (no doctype) the root and body stretch to the viewport: measure what the body holds.
    if (document.compatMode !== 'BackCompat' || !body) return { width, height: box.height };
    const range = document.createRange();
    range.selectNodeContents(body);
    const style = getComputedStyle(body);
    const below = ['paddingBottom', 'borderBottomWidth', 'marginBottom'].reduce((sum, key) => sum + (parseFloat(style[key]) || 0), 0);
    return { width, height: range.getBoundingClientRect().bottom + scrollY + below };
  })()`);
  const { width, height } = size as { width: number; height: number };
  return { width: Number.isFinite(width) ? width : 0, height: Number.isFinite(height) ? height : 0 };
}
