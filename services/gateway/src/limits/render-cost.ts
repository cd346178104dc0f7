import {
  type CodeRenderPayload,
  codeFrame,
  codeLines,
  minCodeHeight,
  renderCostUnits,
  ScreenshotDevices,
  type ScreenshotRenderPayload,
} from '@render/contracts';
import type { RenderKind, RenderPayload } from '@render/queue';
import { creditsOf } from '../billing/render-credits.ts';

/** What an anonymous render costs: the image's pixels (width × height × scale²), its format and the units. */
export interface RenderCost {
  pixels: number;
  format: string;
  units: number;
}

/** A code image's size: its height is measured by the worker unless given, so auto heights count their least. */
function codePixels(p: CodeRenderPayload): number {
  const { bar, outer } = codeFrame(p);
  const lines = codeLines(p.code);
  const geometry = { ...p, showLineNumbers: p.showLineNumbers, lineCount: lines.length };
  const height = (p.height ?? minCodeHeight(lines, geometry) + bar) + 2 * outer;
  return (p.width + 2 * outer) * height * p.scale * p.scale;
}

/**
 * A screenshot's viewport (the device's unless overridden), or its clip. A full page's (or an element's)
 * height is unknown before it loads: it counts as `maxCapturePixels`, where the worker cuts it (so does an element capture).
 */
function screenshotPixels(p: ScreenshotRenderPayload): number {
  const device = ScreenshotDevices[p.deviceType];
  const scale = p.scale ?? device.deviceScaleFactor;
  const viewport = (p.width ?? device.width) * (p.height ?? device.height) * scale * scale;
  if (p.clip) return Math.max(viewport, p.clip.width * p.clip.height * scale * scale);
  return (p.fullPage || p.selector) && p.maxCapturePixels ? Math.max(viewport, p.maxCapturePixels) : viewport;
}

/** The pixels a job's image will have, from its payload (before any browser is involved). */
export function renderPixels<K extends RenderKind>(kind: K, payload: RenderPayload<K>): number {
  switch (kind) {
    case 'code':
      return codePixels(payload as CodeRenderPayload);
    case 'screenshot':
      return screenshotPixels(payload as ScreenshotRenderPayload);
    default: {
      const { width, height, scale } = payload as { width: number; height: number; scale?: number };
      return width * height * (scale ?? 1) ** 2;
    }
  }
}

export function renderCost<K extends RenderKind>(kind: K, payload: RenderPayload<K>): RenderCost {
  const pixels = Math.round(renderPixels(kind, payload));
  const format = (payload as { format: string }).format;
  // A video (a screenshot recorded) costs as many images as it costs credits.
  return { pixels, format, units: renderCostUnits(pixels, format) * creditsOf(kind, payload) };
}
