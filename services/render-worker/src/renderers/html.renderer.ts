import { MimeTypes } from '@render/contracts';
import type { HtmlRenderPayload } from '@render/queue';
import { applyPageSettings, isSelfContained, needsScript, renderStatic, screenshot, withDeadline } from './page-ops.ts';
import type { Renderer } from './renderer.ts';

const WEB_FONTS = /@font-face|@import|fonts\.googleapis|<link\b/i;

export const renderHtml: Renderer<HtmlRenderPayload> = async (payload, ctx) => {
  const { timeoutMs } = ctx;
  return (await ctx.pool('generic')).run(({ page, slot }) =>
    withDeadline(slot, timeoutMs, async () => {
      const scriptEnabled = needsScript(payload.html);
      await applyPageSettings(page, slot, { scriptEnabled, width: payload.width, height: payload.height, scale: payload.scale });
      const quality = payload.format === 'png' ? undefined : payload.quality;
      let bytes: Buffer;
      if (isSelfContained(payload.html)) {
        bytes = await renderStatic(page, slot, payload.html, { type: payload.format, quality });
      } else {
        // timeout 0: withDeadline owns the deadline, and puppeteer would build a TimeoutError per call.
        await page.setContent(payload.html, { waitUntil: 'load', timeout: 0 });
        if (WEB_FONTS.test(payload.html)) {
          // The load event does not wait for web fonts that layout asked for; text would render in a fallback.
          await page.evaluate('document.fonts.ready.then(() => true)');
        }
        bytes = await screenshot(page, { type: payload.format, quality });
      }
      return {
        bytes,
        format: payload.format,
        mimeType: MimeTypes[payload.format],
        width: Math.round(payload.width * payload.scale),
        height: Math.round(payload.height * payload.scale),
      };
    }),
  );
};
