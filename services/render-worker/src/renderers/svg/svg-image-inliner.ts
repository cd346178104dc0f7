import type { SvgImageVariable } from '@render/queue';
import { EgressFetchError, type EgressFetchFailure, fetchViaEgress } from '../../egress/egress-client.ts';
import { RenderError } from '../page/render-error.ts';
import type { ImageFetchSettings } from '../page/renderer.ts';

const MAX_REDIRECTS = 5;
const ACCEPT = 'image/png,image/jpeg,image/gif,image/webp,image/svg+xml,image/*;q=0.8,*/*;q=0.1';

export type ImageMimeType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' | 'image/svg+xml';

const startsWith = (bytes: Buffer, signature: number[], at = 0) => signature.every((b, i) => bytes[at + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/**
 * The root element must be <svg>, not merely mentioned: an HTML page with an inline <svg> is not an image.
 * Single-character alternatives keep the prolog scan linear on hostile input.
 */
const SVG_ROOT = /^(?:\s|<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE(?:[^[>]|\[[\s\S]*?\])*>)*<(?:[A-Za-z_][\w.-]*:)?svg[\s>/]/i;

/**
 * The type comes from the bytes, never from the server's Content-Type: the data: URI must not carry
 * something the browser would treat as anything but an image.
 */
export function sniffImageType(bytes: Buffer): ImageMimeType | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  if (text.trimStart().startsWith('<') && SVG_ROOT.test(text)) return 'image/svg+xml';
  return undefined;
}

/** Attribute values (quoted either way) exactly equal to a ref; text that merely mentions one is left alone. */
const REF_ATTRIBUTE = /(=\s*)(["'])(render-image:[0-9]{1,2})\2/g;

export function replaceImageRefs(svg: string, dataUris: ReadonlyMap<string, string>): string {
  return svg.replace(REF_ATTRIBUTE, (match, eq: string, quote: string, ref: string) => {
    const uri = dataUris.get(ref);
    return uri === undefined ? match : `${eq}${quote}${uri}${quote}`;
  });
}

export function formatSize(bytes: number): string {
  const mib = 1024 * 1024;
  if (bytes >= mib) return `${Number((bytes / mib).toFixed(1))} MB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KB`;
  return `${bytes} bytes`;
}

function describeFailure(url: string, start: URL, failure: EgressFetchFailure, maxBytes: number): RenderError {
  const subject = `Image variable URL ${url}`;
  const viaRedirect = (hop: URL) => (hop.href === start.href ? '' : ` (after a redirect to ${hop.origin})`);
  switch (failure.kind) {
    case 'blocked':
      return new RenderError(`${subject} is not allowed: ${failure.reason}${viaRedirect(failure.url)}`, false);
    case 'unreachable':
      return new RenderError(
        `${subject} could not be fetched: the server could not be reached (${failure.reason})${viaRedirect(failure.url)}`,
        false,
      );
    case 'unresolved':
      return new RenderError(`${subject} could not be fetched: ${failure.reason}${viaRedirect(failure.url)}`, false);
    case 'status':
      return new RenderError(`${subject} could not be fetched: HTTP ${failure.status}`, false);
    case 'timeout':
      return new RenderError(`${subject} did not answer in time`, false);
    case 'too-large':
      return new RenderError(`${subject} is larger than ${formatSize(maxBytes)}`, false);
    case 'redirect':
    case 'network':
      return new RenderError(`${subject} could not be fetched: ${failure.reason}`, false);
    case 'proxy':
      return new RenderError('Failed to generate image: image variables could not be fetched right now', true);
  }
}

async function fetchAsDataUri(url: string, settings: ImageFetchSettings, deadline: number, signal: AbortSignal): Promise<string> {
  let start: URL;
  try {
    start = new URL(url);
  } catch {
    throw new RenderError(`Image variable URL ${url} is not a valid http or https URL`, false);
  }
  if (start.protocol !== 'http:' && start.protocol !== 'https:') {
    throw new RenderError(`Image variable URL ${url} is not a valid http or https URL`, false);
  }
  const timeoutMs = Math.min(settings.timeoutMs, deadline - Date.now());
  if (timeoutMs <= 0) throw describeFailure(url, start, { kind: 'timeout' }, settings.maxBytes);
  let body: Buffer;
  try {
    ({ body } = await fetchViaEgress(start, {
      proxyUrl: settings.proxyUrl,
      maxBytes: settings.maxBytes,
      timeoutMs,
      maxRedirects: MAX_REDIRECTS,
      accept: ACCEPT,
      signal,
    }));
  } catch (err) {
    if (err instanceof EgressFetchError) throw describeFailure(url, start, err.failure, settings.maxBytes);
    throw err;
  }
  const mime = sniffImageType(body);
  if (!mime) throw new RenderError(`Image variable URL ${url} is not an image (PNG, JPEG, GIF, WebP or SVG)`, false);
  return `data:${mime};base64,${body.toString('base64')}`;
}

/**
 * Chromium draws an SVG raster through an <img>, where it loads nothing external, so the worker fetches
 * image variables itself, under the pages' egress policy, and inlines them. Fetches run in parallel; the
 * first failure fails the job and cancels the rest. `deadline` (ms epoch) caps every fetch.
 */
export async function inlineSvgImages(
  svg: string,
  images: readonly SvgImageVariable[],
  settings: ImageFetchSettings,
  deadline: number,
): Promise<string> {
  const seen = new Set<string>();
  for (const { ref } of images) {
    if (seen.has(ref)) throw new RenderError(`Image variable ${ref} is given more than once`, false);
    seen.add(ref);
  }
  const controller = new AbortController();
  // The same URL bound to several refs is fetched once.
  const byUrl = new Map<string, Promise<string>>();
  let totalBytes = 0;
  const fetchOnce = (url: string) => {
    let pending = byUrl.get(url);
    if (!pending) {
      pending = fetchAsDataUri(url, settings, deadline, controller.signal).then((uri) => {
        // Counted as each image arrives, so an oversize set fails (and cancels the rest) as soon as it is one.
        const base64Length = uri.length - uri.indexOf(',') - 1;
        totalBytes += (base64Length * 3) / 4 - (uri.endsWith('==') ? 2 : uri.endsWith('=') ? 1 : 0);
        if (settings.maxTotalBytes !== undefined && totalBytes > settings.maxTotalBytes) {
          throw new RenderError(`Image variables add up to more than ${formatSize(settings.maxTotalBytes)}`, false);
        }
        return uri;
      });
      byUrl.set(url, pending);
    }
    return pending;
  };
  let uris: string[];
  try {
    uris = await Promise.all(images.map(({ url }) => fetchOnce(url)));
  } finally {
    controller.abort();
  }
  return replaceImageRefs(svg, new Map(images.map(({ ref }, i) => [ref, uris[i]!])));
}
