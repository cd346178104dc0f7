import { type RenderWarning, type RenderWarningCode, RenderWarningLimits } from '@render/contracts';
import type { ConsoleMessage, HTTPRequest, HTTPResponse, Page } from 'puppeteer-core';
import type { PageSlot } from '../../browser/page-pool-concurrency.ts';
import { findEgressRefusal } from '../../egress/egress-refusals.ts';
import { glyphLookup } from './font-coverage.ts';
import { evaluateInPage } from './page-ops.ts';
import type { RenderedImage } from './renderer.ts';

/**
 * Render diagnostics (`warnings` in the answer): what went wrong in a render that still made an image.
 * A hostile page writes most of this text (URLs, console messages) and can produce it without end, so
 * everything is deduplicated, cut to the contracts' lengths and capped in count as it is added.
 */
export class RenderDiagnostics {
  private readonly list: RenderWarning[] = [];
  private readonly keys = new Set<string>();
  /** When the job started: egress refusals older than this belong to other jobs. */
  readonly since = Date.now();

  add(code: RenderWarningCode, message: string, detail?: RenderWarning['detail'], key = `${code}\n${message}`): void {
    if (this.list.length >= RenderWarningLimits.maxWarnings) return;
    const bounded = key.slice(0, 1_000); // a page's message can be megabytes
    if (this.keys.has(bounded)) return;
    this.keys.add(bounded);
    const warning: RenderWarning = { code, message: cut(message, RenderWarningLimits.maxMessageLength) };
    if (detail) warning.detail = boundDetail(detail);
    this.list.push(warning);
  }

  /** The warnings so far (undefined when none: the reply then carries no field). */
  get warnings(): RenderWarning[] | undefined {
    return this.list.length ? [...this.list] : undefined;
  }
}

/** `text` cut to `max` characters (code points, so no half surrogate pair), with an ellipsis when cut. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  // 2 × max UTF-16 units hold at least max code points; a pair split at the end is never among the kept ones.
  const chars = Array.from(text.slice(0, max * 2));
  if (text.length <= max * 2 && chars.length <= max) return text;
  return `${chars.slice(0, max - 1).join('')}…`;
}

/**
 * A URL as a warning shows it: no query string or fragment (they can carry tokens), no user info, data:
 * URLs reduced to their type, the whole cut to the contracts' length.
 */
export function displayUrl(raw: string): string {
  if (/^data:/i.test(raw)) {
    const end = raw.search(/[,;]/);
    return cut(end > 0 ? raw.slice(0, end) : raw, 40);
  }
  try {
    const url = new URL(raw);
    url.search = '';
    url.hash = '';
    url.username = '';
    url.password = '';
    return cut(url.href, RenderWarningLimits.maxUrlLength);
  } catch {
    return cut(raw.replace(/[?#].*$/s, ''), RenderWarningLimits.maxUrlLength);
  }
}

function boundDetail(detail: NonNullable<RenderWarning['detail']>): NonNullable<RenderWarning['detail']> {
  const out: NonNullable<RenderWarning['detail']> = {};
  if (detail.url !== undefined) out.url = displayUrl(detail.url);
  for (const name of ['reason', 'font', 'fallback', 'selector'] as const) {
    const value = detail[name];
    if (value !== undefined) out[name] = cut(value, RenderWarningLimits.maxDetailLength);
  }
  if (detail.characters !== undefined) out.characters = Array.from(detail.characters).slice(0, RenderWarningLimits.maxCharacters).join('');
  if (detail.codePoints !== undefined) out.codePoints = detail.codePoints.slice(0, RenderWarningLimits.maxCharacters);
  return out;
}

// --- Page events: sub-resources and the console ----------------------------------------------------------

/** Failures that are not problems of the page: our own blocking (ads, trackers) and cancelled loads. */
const IGNORED_NET_ERRORS = /net::ERR_(ABORTED|BLOCKED_BY_CLIENT|BLOCKED_BY_RESPONSE)\b/;

function targetOf(url: string): { host: string; port: number } | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
    return { host: parsed.hostname, port: parsed.port ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : 80 };
  } catch {
    return undefined;
  }
}

/** Why the egress proxy refused (or could not reach) a URL's host, as it noted it. */
function refusalOf(url: string, since: number) {
  const target = targetOf(url);
  return target ? findEgressRefusal(target.host, target.port, since) : undefined;
}

/**
 * Listens to the page's requests and console for the rest of the job; call the answer to stop. The egress
 * proxy answers a refused plain-http request itself (403 + X-Egress-Blocked) and fails a refused CONNECT
 * (https), which Chromium shows only as ERR_TUNNEL_CONNECTION_FAILED: the proxy's own note says why.
 */
export function watchPage(page: Page, diagnostics: RenderDiagnostics): () => void {
  const onResponse = (response: HTTPResponse) => {
    const status = response.status();
    if (status < 400) return;
    const url = response.url();
    const headers = response.headers();
    if (headers['x-egress-blocked']) {
      const reason = refusalOf(url, diagnostics.since)?.reason ?? 'not allowed by the egress policy';
      diagnostics.add('RESOURCE_REFUSED', `Refused ${displayUrl(url)}: ${reason}`, { url, reason }, `refused\n${displayUrl(url)}`);
    } else if (headers['x-egress-error'] === 'unreachable' || headers['x-egress-error'] === 'unresolved') {
      const reason = refusalOf(url, diagnostics.since)?.reason ?? headers['x-egress-error'];
      diagnostics.add('RESOURCE_FAILED', `Could not reach ${displayUrl(url)} (${reason})`, { url, reason }, `failed\n${displayUrl(url)}`);
    } else {
      const reason = `HTTP ${status}`;
      diagnostics.add('RESOURCE_FAILED', `${displayUrl(url)} answered ${reason}`, { url, reason }, `failed\n${displayUrl(url)}`);
    }
  };
  const onRequestFailed = (request: HTTPRequest) => {
    const errorText = request.failure()?.errorText ?? 'failed';
    if (IGNORED_NET_ERRORS.test(errorText)) return;
    const url = request.url();
    const key = displayUrl(url);
    if (/ERR_TUNNEL_CONNECTION_FAILED|ERR_PROXY_CONNECTION_FAILED/.test(errorText)) {
      const refusal = refusalOf(url, diagnostics.since);
      if (refusal?.kind === 'blocked') {
        diagnostics.add('RESOURCE_REFUSED', `Refused ${key}: ${refusal.reason}`, { url, reason: refusal.reason }, `refused\n${key}`);
        return;
      }
      if (refusal) {
        diagnostics.add('RESOURCE_FAILED', `Could not reach ${key} (${refusal.reason})`, { url, reason: refusal.reason }, `failed\n${key}`);
        return;
      }
    }
    diagnostics.add('RESOURCE_FAILED', `${key} failed to load (${errorText})`, { url, reason: errorText }, `failed\n${key}`);
  };
  const onConsole = (message: ConsoleMessage) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    // Chromium logs every failed load as well; those are reported above, with their reason.
    if (/^Failed to load resource\b/.test(text)) return;
    diagnostics.add('CONSOLE_ERROR', `console.error: ${text}`);
  };
  const onPageError = (error: unknown) => {
    const text = error instanceof Error ? (error.message.split('\n')[0] ?? error.name) : String(error);
    diagnostics.add('CONSOLE_ERROR', `Uncaught error: ${text}`);
  };
  page.on('response', onResponse);
  page.on('requestfailed', onRequestFailed);
  page.on('console', onConsole);
  page.on('pageerror', onPageError);
  return () => {
    page.off('response', onResponse);
    page.off('requestfailed', onRequestFailed);
    page.off('console', onConsole);
    page.off('pageerror', onPageError);
  };
}

// --- Glyphs and fonts -------------------------------------------------------------------------------------

/**
 * Characters nothing is drawn for whatever the font: controls, format characters (joiners, bidi marks,
 * tags), spaces, combining marks and variation selectors (shaped onto their base), surrogates.
 */
const NOT_DRAWN = /[\p{Cc}\p{Cf}\p{Z}\p{Mn}\p{Me}\p{Cs}]/u; // variation selectors are Mn

const codePoint = (char: string) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * The distinct characters of `text` that no installed font has (fontconfig's coverage, read once per
 * process): the cheap pre-check. A web font of the page may still have them; `confirmMissingGlyphs` asks
 * the page about those few.
 */
export async function uncoveredCharacters(text: string, limit = 64): Promise<string[]> {
  const covered = await glyphLookup();
  if (!covered) return [];
  const out: string[] = [];
  const seen = new Set<number>();
  for (const char of text) {
    const cp = char.codePointAt(0)!;
    if (cp < 0x7f || seen.has(cp)) continue;
    seen.add(cp);
    if (NOT_DRAWN.test(char)) continue;
    if (!covered(cp)) {
      out.push(char);
      if (out.length >= limit) break;
    }
  }
  return out;
}

export function reportMissingGlyphs(diagnostics: RenderDiagnostics, chars: string[]): void {
  if (chars.length === 0) return;
  const shown = chars.slice(0, RenderWarningLimits.maxCharacters);
  const list = shown.map(codePoint);
  diagnostics.add(
    'MISSING_GLYPH',
    `${chars.length} character${chars.length === 1 ? '' : 's'} had no glyph in any font and drew as boxes: ${list.slice(0, 8).join(' ')}${chars.length > 8 ? ' …' : ''}`,
    { characters: shown.join(''), codePoints: list },
  );
}

/** The glyph check of text the worker knows itself (SVG text, chart labels, code): fontconfig's coverage only. */
export async function checkTextGlyphs(diagnostics: RenderDiagnostics, text: string): Promise<void> {
  reportMissingGlyphs(diagnostics, await uncoveredCharacters(text));
}

/** Evaluation in the rendered page; `trusted` when no page script ran there (its answers can be remembered). */
export type Evaluate = (<T>(expression: string) => Promise<T>) & { trusted?: boolean };

/** Evaluation on a warm page over its slot's own session; `page.evaluate` for pages without one. */
export const pageEvaluator = (page: Page, slot?: PageSlot): Evaluate =>
  Object.assign(<T>(expression: string) => (slot ? evaluateInPage<T>(page, slot, expression) : (page.evaluate(expression) as Promise<T>)), {
    trusted: slot?.applied.scriptEnabled === false,
  });

/**
 * Whether the browser has a font family, as pages with scripts off measured it: installed fonts do not
 * change while the worker runs, and measuring a family costs about a millisecond a time. A page that ran
 * scripts could lie about its measurements, so only script-free pages teach it. Bounded.
 */
const familyAvailability = new Map<string, boolean>();
const MAX_KNOWN_FAMILIES = 1_000;

/**
 * What only the page can answer: text beyond ASCII (or entities that may make some), fonts or styles from
 * elsewhere, content a script, SVG or frame makes, and the `font` shorthand (its family list is not parsed
 * here).
 */
const PAGE_DECIDES = /[^\t\n\r -~]|&|<link|@import|@font-face|<script|<svg|<iframe|<object|<embed|<font\b|font-family=|\bfont\s*:/i;
const FONT_FAMILY = /font-family\s*:\s*([^;}<>]*)/gi;
/** A family list the page check skips: it starts with a generic family (the page's GENERIC set, unquoted). */
const GENERIC_HEAD =
  /^\s*(?:serif|sans-serif|monospace|cursive|fantasy|system-ui|ui-serif|ui-sans-serif|ui-monospace|ui-rounded|math|emoji|fangsong|inherit|initial|unset|revert|revert-layer)\s*(?:[,;!"']|$)/i;

/**
 * Whether an HTML render needs the page check (~1–2 ms: a DevTools round trip and a walk of the text): not
 * for ASCII text whose every font-family list starts with a generic family, where no glyph can be missing
 * and no font can fall back. Errs towards checking: anything it cannot read leaves the answer to the page.
 */
export function mayNeedFontCheck(markup: string): boolean {
  if (PAGE_DECIDES.test(markup)) return true;
  for (const [, families] of markup.matchAll(FONT_FAMILY)) if (!GENERIC_HEAD.test(families ?? '')) return true;
  return false;
}

/** The page check for an HTML render, or none when the markup cannot need it. */
export const fontCheckFor = (markup: string, page: Page, slot: PageSlot): Evaluate | undefined =>
  mayNeedFontCheck(markup) ? pageEvaluator(page, slot) : undefined;

/** The image with the warnings (no field when there are none). */
export const withWarnings = (image: RenderedImage, diagnostics: RenderDiagnostics): RenderedImage => {
  const { warnings } = diagnostics;
  return warnings ? { ...image, warnings: [...(image.warnings ?? []), ...warnings].slice(0, RenderWarningLimits.maxWarnings) } : image;
};

/**
 * Runs a page render with its diagnostics: the page's requests and console are watched while `render`
 * runs, then (with `evaluate`) its fonts and glyphs are checked on the document it drew.
 */
export async function withDiagnostics(
  page: Page,
  evaluate: Evaluate | undefined,
  render: (diagnostics: RenderDiagnostics) => Promise<RenderedImage>,
  diagnostics = new RenderDiagnostics(),
): Promise<RenderedImage> {
  const stop = watchPage(page, diagnostics);
  try {
    const image = await render(diagnostics);
    // The page runs the check, and a page can break it: that costs the warnings, never the image.
    if (evaluate) await checkPageFonts(evaluate, diagnostics).catch(() => undefined);
    return withWarnings(image, diagnostics);
  } finally {
    stop();
  }
}

/**
 * A page function's call as text, with the page functions it calls (`helpers`, declared before it). The
 * production bundle keeps function names (esbuild `keepNames`), which wraps the inner functions in
 * `__name(…)`: the page gets a do-nothing one.
 */
const inPageWith = (helpers: Array<(...args: never[]) => unknown>, fn: (...args: never[]) => unknown, ...args: unknown[]) =>
  `(() => { const __name = (f) => f; ${helpers.map((helper) => helper.toString()).join('\n')}
  return (${fn.toString()})(${args.map((a) => JSON.stringify(a)).join(',')}); })()`;

const inPage = (fn: (...args: never[]) => unknown, ...args: unknown[]) => inPageWith([], fn, ...args);

interface PageTextReport {
  /** The distinct non-ASCII characters of the document's text. */
  chars: string;
  fallbacks: Array<{ font: string; fallback: string }>;
  /** Installed families this call measured (lower case → there), for `familyAvailability`. */
  measured: Record<string, boolean>;
}

/** In the page: the distinct non-ASCII characters of the document's text nodes (script and style excluded). */
function documentChars(): string {
  const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'TITLE', 'TEXTAREA']);
  const seen = new Set<string>();
  let chars = '';
  const walker = document.createTreeWalker(document.documentElement ?? document, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node && seen.size < 4000; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (parent && SKIP.has(parent.tagName.toUpperCase())) continue;
    const data = node.nodeValue ?? '';
    if (!/[^\t\n\r -~]/.test(data)) continue;
    for (const char of data) {
      if (char.charCodeAt(0) < 0x7f || seen.has(char)) continue;
      seen.add(char);
      chars += char;
    }
  }
  return chars;
}

/** In the page: the generic families (and keywords) a font-family list can name, lower case. */
function genericFamilies(): Set<string> {
  return new Set([
    'serif',
    'sans-serif',
    'monospace',
    'cursive',
    'fantasy',
    'system-ui',
    'ui-serif',
    'ui-sans-serif',
    'ui-monospace',
    'ui-rounded',
    'math',
    'emoji',
    'fangsong',
    'inherit',
    'initial',
    'unset',
    'revert',
    'revert-layer',
    '-apple-system',
    'blinkmacsystemfont',
  ]);
}

/** In the page: the font-family lists the document's style uses (rules that match, style attributes, SVG and <font>). */
function fontStacks(): Set<string> {
  const stacks = new Set<string>();
  const addStack = (value: string | null | undefined) => {
    if (value && stacks.size < 50) stacks.add(value.trim());
  };
  const visit = (rules: CSSRuleList) => {
    for (const rule of Array.from(rules)) {
      if (stacks.size >= 50) return;
      if (rule instanceof CSSStyleRule) {
        const family = rule.style.fontFamily;
        if (!family) continue;
        let used = true;
        try {
          used = document.querySelector(rule.selectorText) !== null;
        } catch {}
        if (used) addStack(family);
      } else if ('cssRules' in rule && !(rule instanceof CSSFontFaceRule)) {
        visit((rule as CSSGroupingRule).cssRules);
      }
    }
  };
  for (const sheet of Array.from(document.styleSheets)) {
    try {
      visit(sheet.cssRules);
    } catch {} // a cross-origin sheet cannot be read
  }
  for (const el of Array.from(document.querySelectorAll('[style*="font"]')).slice(0, 200)) addStack((el as HTMLElement).style?.fontFamily);
  for (const el of Array.from(document.querySelectorAll('[font-family],font[face]')).slice(0, 200)) {
    addStack(el.getAttribute('font-family') ?? el.getAttribute('face'));
  }
  return stacks;
}

/** In the page: the family names of a font-family list, unquoted. */
function familyNames(stack: string): string[] {
  return (stack.match(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^,]+/g) ?? [])
    .map((part) =>
      part
        .trim()
        .replace(/^(["'])(.*)\1$/s, '$2')
        .replace(/\\(.)/g, '$1')
        .trim(),
    )
    .filter((name) => name !== '' && name !== ',');
}

/**
 * In the page: whether a family is there. A family is there when text measures the same whether its list
 * goes on with monospace or serif: a missing one leaves two different generics. Loaded (or still unused)
 * web fonts count as there; `known` answers for families measured before, and what this call measures is
 * added to `measured`.
 */
function familyChecker(known: Record<string, boolean>, measured: Record<string, boolean>): (name: string) => boolean {
  const GENERIC = genericFamilies();
  const faces = Array.from(document.fonts as unknown as Iterable<FontFace>);
  const faceStatus = (name: string) => {
    const mine = faces.filter((f) => f.family.replace(/^(["'])(.*)\1$/s, '$2').toLowerCase() === name.toLowerCase());
    if (mine.some((f) => f.status === 'loaded')) return 'loaded';
    if (mine.some((f) => f.status === 'unloaded' || f.status === 'loading')) return 'pending';
    return mine.length ? 'error' : 'none';
  };
  const ctx = document.createElement('canvas').getContext('2d');
  const probe = 'mmmmmmmmmmlli1WQ@#';
  const width = (font: string) => {
    if (!ctx) return 0;
    ctx.font = font;
    return ctx.measureText(probe).width;
  };
  const availability = new Map<string, boolean>();
  return (name: string) => {
    const key = name.toLowerCase();
    if (GENERIC.has(key)) return true;
    let there = availability.get(key);
    if (there === undefined) {
      const status = faceStatus(name);
      if (status === 'loaded' || status === 'pending') there = true;
      else if (status === 'error') there = false;
      else if (Object.hasOwn(known, key)) there = known[key] === true;
      else {
        const quoted = JSON.stringify(name);
        there = width(`72px ${quoted}, monospace`) === width(`72px ${quoted}, serif`);
        measured[key] = there;
      }
      availability.set(key, there);
    }
    return there;
  };
}

/**
 * In the page, in one call: the distinct non-ASCII characters of the document's text, and the
 * font-families the document's style asks for first that the browser does not have (see
 * `familyChecker`). Runs with the helpers above (`PAGE_TEXT_HELPERS`).
 */
function pageTextReport(known: Record<string, boolean>): PageTextReport {
  const chars = documentChars();
  const GENERIC = genericFamilies();
  const SYSTEM_ALIASES = new Set(['-apple-system', 'blinkmacsystemfont']);
  const measured: Record<string, boolean> = {};
  const available = familyChecker(known, measured);
  const fallbacks: PageTextReport['fallbacks'] = [];
  const reported = new Set<string>();
  for (const stack of fontStacks()) {
    const list = familyNames(stack);
    // A list that starts with a generic family asked for it; the system-font aliases only lead to the next name.
    const head = list[0]?.toLowerCase();
    if (!head || (GENERIC.has(head) && !SYSTEM_ALIASES.has(head))) continue;
    const first = list.find((name) => !GENERIC.has(name.toLowerCase()));
    if (!first) continue;
    if (reported.has(first.toLowerCase()) || available(first)) continue;
    reported.add(first.toLowerCase());
    const fallback = list.slice(list.indexOf(first) + 1).find(available) ?? 'the default font';
    fallbacks.push({ font: first, fallback });
    if (fallbacks.length >= 10) break;
  }
  return { chars, fallbacks, measured };
}

/** The page functions `pageTextReport` calls, sent with it. */
const PAGE_TEXT_HELPERS = [documentChars, genericFamilies, fontStacks, familyNames, familyChecker];

/**
 * For the few characters the pre-check found no installed font for: is each drawn as a box where it is
 * shown? It is drawn in a canvas in its element's font next to U+10FFFD (which no font has): the same
 * pixels mean a box. This is what a page's web font changes, and it skips text that is not visible.
 */
function confirmInPage(chars: string[], fontStack: string | null): string[] {
  const canvas = document.createElement('canvas');
  canvas.width = 96;
  canvas.height = 64;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) return chars;
  const fontOf = (char: string): string | null => {
    if (fontStack) return fontStack;
    const walker = document.createTreeWalker(document.documentElement ?? document, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || !(node.nodeValue ?? '').includes(char)) continue;
      if (parent.checkVisibility && !parent.checkVisibility()) continue;
      const style = getComputedStyle(parent);
      return `${style.fontStyle} ${style.fontWeight} 40px ${style.fontFamily}`;
    }
    return null;
  };
  const pixels = (text: string, font: string) => {
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.font = font;
    ctx.fillStyle = '#000';
    ctx.textBaseline = 'top';
    ctx.fillText(text, 8, 8);
    return ctx.getImageData(0, 0, canvas.width, canvas.height).data;
  };
  const missing: string[] = [];
  for (const char of chars) {
    const font = fontOf(char);
    if (!font) continue; // not shown anywhere
    const drawn = pixels(char, font);
    const box = pixels('\u{10FFFD}', font);
    let same = drawn.length === box.length;
    for (let i = 0; same && i < drawn.length; i += 4) if (drawn[i + 3] !== box[i + 3]) same = false;
    if (same) missing.push(char);
  }
  return missing;
}

/**
 * The glyph and font checks of a rendered document. The page is asked once for its distinct non-ASCII
 * characters and the first families its style names that are not there; the costly per-character drawing
 * runs only for characters no installed font has.
 */
export async function checkPageFonts(evaluate: Evaluate, diagnostics: RenderDiagnostics): Promise<void> {
  const report = await evaluate<PageTextReport | undefined>(
    inPageWith(PAGE_TEXT_HELPERS, pageTextReport, Object.fromEntries(familyAvailability)),
  );
  if (!report || typeof report.chars !== 'string' || !Array.isArray(report.fallbacks)) return;
  if (evaluate.trusted && report.measured && familyAvailability.size < MAX_KNOWN_FAMILIES) {
    for (const [family, there] of Object.entries(report.measured).slice(0, 50)) {
      if (typeof there === 'boolean' && family.length <= 200) familyAvailability.set(family, there);
    }
  }
  for (const { font, fallback } of report.fallbacks.slice(0, 10)) {
    if (typeof font !== 'string' || typeof fallback !== 'string') continue;
    diagnostics.add(
      'FONT_FALLBACK',
      `The font "${font}" is not available; ${fallback === 'the default font' ? 'the default font' : `"${fallback}"`} was used instead`,
      { font, fallback },
    );
  }
  const candidates = await uncoveredCharacters(report.chars.slice(0, 20_000));
  if (candidates.length === 0) return;
  const missing = await evaluate<string[]>(inPage(confirmInPage, candidates, null));
  reportMissingGlyphs(diagnostics, Array.isArray(missing) ? missing.filter((c) => candidates.includes(c)) : []);
}

/** The glyph check of text drawn in a known font stack on a page (code images): confirmed in that font. */
export async function checkGlyphsInFont(
  evaluate: Evaluate,
  diagnostics: RenderDiagnostics,
  text: string,
  fontStack: string,
): Promise<void> {
  const candidates = await uncoveredCharacters(text);
  if (candidates.length === 0) return;
  const missing = await evaluate<string[]>(inPage(confirmInPage, candidates, fontStack));
  reportMissingGlyphs(diagnostics, missing ?? []);
}
