import type { ChartRenderPayload, CodeRenderPayload, SvgRenderPayload } from '@render/contracts';
import { CODE_FONT_STACK } from './code/code-font.ts';
import {
  checkGlyphsInFont,
  checkTextGlyphs,
  pageEvaluator,
  RenderDiagnostics,
  uncoveredCharacters,
  withWarnings,
} from './page/diagnostics.ts';
import type { Renderer, RendererContext } from './page/renderer.ts';

/**
 * Diagnostics of the renders whose text the worker knows itself (SVG, charts, code): checked on the
 * payload, around the renderer, so the renderers stay as they are. Only what went into the image is
 * checked: a failed render has no warnings to give.
 */
export const diagnosed =
  <P>(renderer: Renderer<P>, check: (payload: P, diagnostics: RenderDiagnostics, ctx: RendererContext) => Promise<void>): Renderer<P> =>
  async (payload, ctx) => {
    const image = await renderer(payload, ctx);
    const diagnostics = new RenderDiagnostics();
    await check(payload, diagnostics, ctx);
    return withWarnings(image, diagnostics);
  };

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? whole;
    const cp = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
    return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : whole;
  });
}

/** The character data an SVG draws: element text outside style, script, title, desc and metadata. */
export function svgText(svg: string): string {
  const drawn = svg
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(style|script|title|desc|metadata)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1');
  let text = '';
  for (const match of drawn.matchAll(/>([^<]+)</g)) text += match[1];
  return decodeEntities(text);
}

/**
 * References an SVG image cannot follow: drawn as an image (raster output) Chromium loads nothing
 * external, and an SVG answer carries a CSP that refuses them too. Fragments, data: URIs and template
 * image variables (inlined by the worker) are fine.
 */
export function svgExternalRefs(svg: string): string[] {
  const refs = new Set<string>();
  const add = (raw: string | undefined) => {
    const value = decodeEntities((raw ?? '').trim());
    if (!value || value.startsWith('#') || /^data:/i.test(value) || value.startsWith('render-image:')) return;
    if (refs.size < 20) refs.add(value);
  };
  for (const m of svg.matchAll(/\s(?:xlink:)?href\s*=\s*(?:"([^"]*)"|'([^']*)')/gi)) add(m[1] ?? m[2]);
  for (const m of svg.matchAll(/url\(\s*(?:"([^"]*)"|'([^']*)'|([^)'"]*))\s*\)/gi)) add(m[1] ?? m[2] ?? m[3]);
  for (const m of svg.matchAll(/@import\s+(?:"([^"]*)"|'([^']*)')/gi)) add(m[1] ?? m[2]);
  return [...refs];
}

export async function svgDiagnostics(payload: SvgRenderPayload, diagnostics: RenderDiagnostics): Promise<void> {
  for (const url of svgExternalRefs(payload.svg)) {
    const reason = 'an SVG image loads nothing external (embed it as a data: URI)';
    diagnostics.add('RESOURCE_REFUSED', `Not loaded: ${url} (${reason})`, { url, reason });
  }
  // An SVG answer is drawn by its viewer, with the viewer's fonts.
  if (payload.format !== 'svg') await checkTextGlyphs(diagnostics, svgText(payload.svg));
}

/** Every string of a chart's data and options: labels, titles, category names (what a chart can draw). */
function strings(value: unknown, out: string[], depth = 0): void {
  if (out.length > 20_000 || depth > 32) return;
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) strings(item, out, depth + 1);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      out.push(key);
      strings(item, out, depth + 1);
    }
  }
}

export async function chartDiagnostics(payload: ChartRenderPayload, diagnostics: RenderDiagnostics): Promise<void> {
  if (payload.format === 'svg') return;
  const text: string[] = [];
  strings(payload.chartData, text);
  strings(payload.chartOptions, text);
  await checkTextGlyphs(diagnostics, text.join('\n'));
}

/**
 * Code is drawn in the code pages' own fonts (JetBrains Mono, a web font): characters no installed font
 * has are confirmed in those fonts, on a code page, only when there are any.
 */
export async function codeDiagnostics(payload: CodeRenderPayload, diagnostics: RenderDiagnostics, ctx: RendererContext): Promise<void> {
  const text = `${payload.code}\n${payload.window?.title ?? ''}`;
  if ((await uncoveredCharacters(text)).length === 0) return;
  await (await ctx.pool('code')).run(({ page, slot }) =>
    checkGlyphsInFont(pageEvaluator(page, slot), diagnostics, text, `16px ${CODE_FONT_STACK}`),
  );
}
