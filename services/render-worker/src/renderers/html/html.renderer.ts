import { MimeTypes } from '@render/contracts';
import type { HtmlRenderPayload } from '@render/queue';
import type { Page } from 'puppeteer-core';
import { fontCheckFor, withDiagnostics } from '../page/diagnostics.ts';
import { finishRendered, planEncoding } from '../page/image-encoder.ts';
import {
  applyPageSettings,
  isSelfContained,
  needsScript,
  renderStatic,
  screenshot,
  setStaticDocument,
  withDeadline,
} from '../page/page-ops.ts';
import { printPdf } from '../page/pdf-print.ts';
import type { Renderer } from '../page/renderer.ts';

const WEB_FONTS = /@font-face|@import|fonts\.googleapis|<link\b/i;

export const renderHtml: Renderer<HtmlRenderPayload> = async (payload, ctx) => {
  const { timeoutMs } = ctx;
  const plan = payload.format === 'pdf' ? undefined : planEncoding(payload.format, payload);
  const image = await (await ctx.pool('generic')).run(({ page, slot }) =>
    withDeadline(slot, timeoutMs, () =>
      withDiagnostics(page, fontCheckFor(payload.html, page, slot), async () => {
        const scriptEnabled = needsScript(payload.html);
        await applyPageSettings(page, slot, { scriptEnabled, width: payload.width, height: payload.height, scale: payload.scale });
        const { format } = payload;
        if (!plan) {
          // The viewport's width is the layout width fitToContent measures at; paper pages lay out at theirs.
          if (isSelfContained(payload.html)) await setStaticDocument(page, slot, payload.html);
          else await loadDocument(page, payload.html);
          const pdf = await printPdf(page, payload.pdf ?? defaultPdf(payload.width, payload.height));
          return { bytes: pdf.bytes, format, mimeType: MimeTypes.pdf, width: pdf.width, height: pdf.height };
        }
        const capture = { type: plan.capture, quality: plan.captureQuality };
        let captured: Buffer;
        if (isSelfContained(payload.html)) {
          captured = await renderStatic(page, slot, payload.html, capture);
        } else {
          await loadDocument(page, payload.html);
          captured = await screenshot(page, capture);
        }
        return {
          bytes: captured,
          format: plan.format,
          mimeType: plan.mimeType,
          width: Math.round(payload.width * payload.scale),
          height: Math.round(payload.height * payload.scale),
        };
      }),
    ),
  );
  return finishRendered(image, plan);
};

/** Markup that fetches or runs something: set it and wait for its load event (and web fonts). */
async function loadDocument(page: Page, html: string): Promise<void> {
  // timeout 0: withDeadline owns the deadline, and puppeteer would build a TimeoutError per call.
  await page.setContent(html, { waitUntil: 'load', timeout: 0 });
  if (WEB_FONTS.test(html)) {
    // The load event does not wait for web fonts that layout asked for; text would render in a fallback.
    await page.evaluate('document.fonts.ready.then(() => true)');
  }
}

/** A pdf job always carries its options (the gateway resolves them); this only keeps an odd job printable. */
const defaultPdf = (width: number, height: number) => ({
  width: Math.max(96, width),
  height: Math.max(96, height),
  margin: { top: 0, right: 0, bottom: 0, left: 0 },
  printBackground: true,
  fitToContent: false,
});
