import type { AsyncRenderAccepted, AsyncRenderView, ImageJsonResponse, PageMetadata, RenderWarning } from '@render/contracts';
import { AsyncRenderHeads, type RenderHeads } from '@render/contracts/route-heads';
import { WebMessages } from '../i18n/message-ids.ts';
import { ApiError, apiFetch } from './api-client.ts';
import { callRoute, fetchRoute, routeUrl } from './call-route.ts';

/** A rendered image as the site shows it: the bytes as base64 and a data URL, with its size and timing. */
export interface RenderedImage {
  base64: string;
  dataUrl: string;
  mimeType: string;
  format: string;
  width: number;
  height: number;
  /** Bytes. */
  size: number;
  /** Time spent drawing it in the worker (X-Render-Time). */
  renderMs: number | null;
  /** Time the whole call took, as the browser saw it. */
  totalMs: number;
  /** The render's diagnostics (failed or refused resources, console errors, missing glyphs…). */
  warnings: RenderWarning[];
  /** A screenshot in format markdown, html or text: the page's main content. */
  content?: string;
  /** A screenshot with metadata: true: the page's title, description, tags, final URL and status. */
  metadata?: PageMetadata;
}

/** The render calls a page can make (`RenderHeads`: html, svg, chart, code, screenshot, template). */
export type RenderRouteHead = (typeof RenderHeads)['html' | 'svg' | 'chart' | 'code' | 'screenshot' | 'template'];

export interface RenderCall {
  /** The render call's head, e.g. `RenderHeads.html`. */
  route: RenderRouteHead;
  body: Record<string, unknown>;
  /** Which field selects JSON output on this call (docs/spec/entities.md: output or outputType). */
  outputField: 'output' | 'outputType';
  apiKey?: string;
  signal?: AbortSignal;
}

/** The render call itself, always asking for JSON so the page gets base64 and metadata in one answer. */
const postRender = (call: RenderCall) =>
  apiFetch(routeUrl(call.route, {}), {
    method: call.route.method,
    body: { ...call.body, [call.outputField]: 'json' },
    headers: call.apiKey ? { 'x-api-key': call.apiKey } : undefined,
    anonymous: true,
    signal: call.signal,
  });

/** Renders through the real API: the image with its metadata. */
export async function renderImage(call: RenderCall): Promise<RenderedImage> {
  const started = performance.now();
  return renderedImage(await postRender(call), started);
}

/** What a render call answered: the image, or (a call with `webhook`) 202 with the render's id. */
export type RenderOutcome = { kind: 'image'; image: RenderedImage } | { kind: 'accepted'; render: AsyncRenderAccepted['data'] };

/** `renderImage`, except that a call with `webhook` answers 202 (the render runs in the background) instead of an image. */
export async function startRender(call: RenderCall): Promise<RenderOutcome> {
  const started = performance.now();
  const response = await postRender(call);
  if (response.status !== 202) return { kind: 'image', image: await renderedImage(response, started) };
  const answer = (await response.json().catch(() => null)) as AsyncRenderAccepted | null;
  if (!answer?.data || typeof answer.data.id !== 'string') throw new ApiError(WebMessages.invalidResponse, response.status);
  return { kind: 'accepted', render: answer.data };
}

/** An async render's status (`GET /api/renders/{id}`), asked with the credentials the render was made with. */
export async function renderStatus(id: string, apiKey: string | undefined, signal?: AbortSignal): Promise<AsyncRenderView> {
  const answer = await callRoute(
    AsyncRenderHeads.status,
    { params: { id } },
    { headers: apiKey ? { 'x-api-key': apiKey } : undefined, anonymous: Boolean(apiKey), signal },
  );
  if (!answer?.data || typeof answer.data.status !== 'string') throw new ApiError(WebMessages.invalidResponse, 200);
  return answer.data;
}

/** A finished async render's image bytes (`GET /api/renders/{id}/image`). */
export async function renderImageBlob(id: string, apiKey: string | undefined, signal?: AbortSignal): Promise<Blob> {
  const response = await fetchRoute(
    AsyncRenderHeads.image,
    { params: { id } },
    { headers: { accept: '*/*', ...(apiKey ? { 'x-api-key': apiKey } : {}) }, anonymous: Boolean(apiKey), signal },
  );
  return response.blob();
}

/** A JSON image answer (`output`/`outputType: "json"`) as the page shows it, timed from `started`. */
export async function renderedImage(response: Response, started: number): Promise<RenderedImage> {
  const answer = (await response.json().catch(() => null)) as ImageJsonResponse | null;
  const data = answer?.data;
  if (!data || typeof data.image !== 'string') throw new ApiError(WebMessages.invalidResponse, response.status);
  const renderTime = Number(response.headers.get('x-render-time'));
  return {
    base64: data.image,
    dataUrl: `data:${data.mimeType};base64,${data.image}`,
    mimeType: data.mimeType,
    format: data.format,
    width: data.width,
    height: data.height,
    size: data.size,
    renderMs: Number.isFinite(renderTime) && response.headers.has('x-render-time') ? renderTime : null,
    totalMs: Math.round(performance.now() - started),
    warnings: Array.isArray(data.warnings) ? data.warnings : [],
    ...(typeof data.content === 'string' ? { content: data.content } : {}),
    ...(data.metadata ? { metadata: data.metadata } : {}),
  };
}

export function formatBytes(bytes: number, language: string): string {
  const units = ['B', 'KB', 'MB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${new Intl.NumberFormat(language, { maximumFractionDigits: unit ? 1 : 0 }).format(value)} ${units[unit]}`;
}
