import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  type BundledLanguage,
  type BundledTheme,
  bundledLanguages,
  bundledThemes,
  createHighlighter,
  type HighlighterGeneric,
  type ThemedToken,
} from 'shiki';
import { RenderError } from '../page/render-error.ts';

type Highlighter = HighlighterGeneric<BundledLanguage, BundledTheme>;

export interface HighlightedCode {
  lines: ThemedToken[][];
  fg: string;
  bg: string;
  lineNumberColor: string;
  dark: boolean;
}

/**
 * Tokenising runs on the worker's event loop, which also drives every other page's CDP traffic and the
 * BullMQ lock renewals; so code is tokenised in slices with a turn of the loop between them, and a job
 * gets a bounded share of time. Some grammars are quadratic on long lines (a 5,000-character TypeScript
 * string takes ~0.5 s), hence the per-line limit: past it shiki leaves the rest of that line unstyled.
 */
const SLICE_CHARS = 4_000;
const LINE_TIME_LIMIT_MS = 100;
/**
 * A language's first lines in a process also compile its grammar's patterns, which on a slow or busy
 * machine can pass the per-line limit and leave ordinary code unstyled; its first slice gets more time.
 */
const COLD_LINE_TIME_LIMIT_MS = 1_000;
const MAX_HIGHLIGHT_MS = 2_000;
/** Lines longer than this (minified bundles) are drawn in the theme's text colour without tokenising. */
const MAX_TOKENIZED_LINE = 10_000;

let highlighter: Promise<Highlighter> | undefined;
let creations = 0;
const loading = new Map<string, Promise<void>>();
const tokenized = new Set<string>();

/** How many highlighters this process has created: one, ever (the test holds it to that). */
export const highlighterCreations = () => creations;

/** The process's single highlighter; languages and themes are loaded into it on first use. */
function getHighlighter(): Promise<Highlighter> {
  if (!highlighter) {
    creations += 1;
    highlighter = createHighlighter({ langs: [], themes: [] });
    highlighter.catch(() => {
      highlighter = undefined; // a failed start (e.g. the WASM engine) is retried by the next job
    });
  }
  return highlighter;
}

const isLanguage = (id: string): id is BundledLanguage => Object.hasOwn(bundledLanguages, id);
const isTheme = (id: string): id is BundledTheme => Object.hasOwn(bundledThemes, id);

function load(h: Highlighter, kind: 'lang' | 'theme', id: string): Promise<void> {
  const key = `${kind}:${id}`;
  let done = loading.get(key);
  if (!done) {
    done = kind === 'lang' ? h.loadLanguage(id as BundledLanguage) : h.loadTheme(id as BundledTheme);
    done.catch(() => loading.delete(key));
    loading.set(key, done);
  }
  return done;
}

const HEX = /^#[0-9a-f]{3,8}$/i;
const hex = (value: string | undefined, fallback: string) => (value && HEX.test(value) ? value : fallback);

/** Highlights `code` with an already-resolved shiki language id and theme name. */
export async function highlightCode(code: string, language: string, theme: string, budgetMs = MAX_HIGHLIGHT_MS): Promise<HighlightedCode> {
  // The gateway resolves both; this only guards against a job produced some other way.
  const plain = language === 'text';
  if (!plain && !isLanguage(language)) throw new RenderError(`Unknown language "${language}"`, false);
  if (!isTheme(theme)) throw new RenderError(`Unknown theme "${theme}"`, false);
  const h = await getHighlighter();
  await Promise.all([plain ? undefined : load(h, 'lang', language), load(h, 'theme', theme)]);

  const resolved = h.getTheme(theme);
  const dark = resolved.type !== 'light';
  const fg = hex(resolved.fg, dark ? '#d4d4d4' : '#333333');
  const bg = hex(resolved.bg, dark ? '#1e1e1e' : '#ffffff');
  // VS Code's own defaults when a theme leaves the gutter colour out.
  const lineNumberColor = hex(resolved.colors?.['editorLineNumber.foreground'], dark ? '#858585' : '#237893');

  const source = code.split('\n');
  const lines: ThemedToken[][] = [];
  const started = Date.now();
  const budget = Math.min(budgetMs, MAX_HIGHLIGHT_MS);
  let state: ReturnType<Highlighter['getLastGrammarState']> | undefined;
  let i = 0;
  while (i < source.length) {
    if (plain || Date.now() - started > budget) break;
    let end = i;
    let chars = 0;
    while (end < source.length && (end === i || chars + source[end]!.length <= SLICE_CHARS)) chars += source[end++]!.length + 1;
    const result = h.codeToTokens(source.slice(i, end).join('\n'), {
      lang: language,
      theme,
      grammarState: state,
      tokenizeMaxLineLength: MAX_TOKENIZED_LINE,
      tokenizeTimeLimit: tokenized.has(language) ? LINE_TIME_LIMIT_MS : COLD_LINE_TIME_LIMIT_MS,
    });
    tokenized.add(language);
    lines.push(...result.tokens);
    state = result.grammarState;
    i = end;
    if (i < source.length) await nextTurn();
  }
  // Plain text, or what the time budget did not reach: one unstyled token per line.
  for (; i < source.length; i++) lines.push([{ content: source[i]!, offset: 0 }]);
  return { lines, fg, bg, lineNumberColor, dark };
}
