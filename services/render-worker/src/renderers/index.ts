import type { RenderKind, RenderPayload } from '@render/queue';
import { renderChart } from './chart/chart.renderer.ts';
import { renderCode } from './code/code.renderer.ts';
import { renderHtml } from './html/html.renderer.ts';
import type { PoolName, Renderer, RendererContext } from './page/renderer.ts';
import { chartDiagnostics, codeDiagnostics, diagnosed, svgDiagnostics } from './payload-diagnostics.ts';
import { renderScreenshot } from './screenshot/screenshot.renderer.ts';
import type { ScreenshotSettings } from './screenshot/screenshot-settings.ts';
import { renderSvg } from './svg/svg.renderer.ts';

/** The context the worker hands every renderer: the shared one, plus the settings a format reads alone. */
export type WorkerRendererContext = RendererContext & ScreenshotSettings;

/** One renderer per job kind; the worker serves the kinds named in RENDER_QUEUES. */
export const renderers: { [K in RenderKind]: Renderer<RenderPayload<K>, WorkerRendererContext> } = {
  html: renderHtml,
  svg: diagnosed(renderSvg, svgDiagnostics),
  chart: diagnosed(renderChart, chartDiagnostics),
  code: diagnosed(renderCode, codeDiagnostics),
  screenshot: renderScreenshot,
};

/** Pools each kind renders on, opened before a worker serving that kind takes jobs. */
export const rendererPools: Record<RenderKind, PoolName[]> = {
  html: ['generic'],
  svg: ['generic'],
  chart: ['chart'],
  code: ['code'],
  screenshot: ['screenshot'],
};
