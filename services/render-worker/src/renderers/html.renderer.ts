import { MimeTypes } from '@render/contracts';
import type { HtmlRenderPayload } from '@render/queue';
import type { RenderTaskContext } from '../browser/render-cluster.ts';
import { applyPageSettings, needsScript, screenshot, withDeadline } from './page-ops.ts';

export interface RenderedImage {
  bytes: Buffer;
  format: string;
  mimeType: string;
  width: number;
  height: number;
}

const WEB_FONTS = /@font-face|@import|fonts\.googleapis|<link\b/i;

export function renderHtml(payload: HtmlRenderPayload, timeoutMs: number) {
  return ({ page, slot }: RenderTaskContext): Promise<RenderedImage> =>
    withDeadline(slot, timeoutMs, async () => {
      const scriptEnabled = needsScript(payload.html);
      await applyPageSettings(page, slot, { scriptEnabled, width: payload.width, height: payload.height, scale: payload.scale });
      // timeout 0: withDeadline owns the deadline, and puppeteer would build a TimeoutError per call.
      await page.setContent(payload.html, { waitUntil: 'load', timeout: 0 });
      if (WEB_FONTS.test(payload.html)) {
        // The load event does not wait for web fonts that layout asked for; text would render in a fallback.
        await page.evaluate('document.fonts.ready.then(() => true)');
      }
      const bytes = await screenshot(page, {
        type: payload.format,
        quality: payload.format === 'png' ? undefined : payload.quality,
      });
      return {
        bytes,
        format: payload.format,
        mimeType: MimeTypes[payload.format],
        width: Math.round(payload.width * payload.scale),
        height: Math.round(payload.height * payload.scale),
      };
    });
}
