/**
 * Two costs of building a Highcharts chart that are forced layouts rather than drawing (measured with the
 * CPU profiler on the bench's column chart: text measuring and font-size reads were about a third of the
 * chart's construction). Both give Highcharts exactly what it would have read, so the SVG is unchanged
 * (checked byte for byte over every sample type, test/highcharts-layout-cache.test.ts).
 *
 * - Font sizes: Highcharts reads an element's computed `font-size` while it builds each text (a cache key
 *   and its line metrics), and each read makes the browser recompute the styles of a document being
 *   changed. Outside styled mode every font size in the chart is an inline style (or inherited from the
 *   container), so it is resolved here from those declarations: px, em, % and rem.
 * - Text boxes: Highcharts caches text bounding boxes per chart, so each new chart measures every label
 *   again (getBBox: a layout each). Outside styled mode the box depends on the text, the styles written on
 *   it and on its ancestors and the root font size: charts share one cache keyed by all of them.
 */

/** The pieces of Highcharts internals used here (not in its public types). */
interface SvgWrapper {
  element?: Element;
  textStr?: unknown;
  renderer?: RendererInternals;
}
interface RendererInternals {
  styledMode?: boolean;
  cache?: Record<string, unknown>;
  cacheKeys?: string[];
}
interface ChartInternals {
  renderTo?: HTMLElement;
}
interface PointerInternals {
  chartPosition?: unknown;
}
export interface LayoutInternals {
  SVGElement?: {
    prototype: {
      getStyle?: (this: SvgWrapper | Element, prop: string) => string;
      getBBoxCacheKey?: (this: SvgWrapper, keys: unknown[]) => string | undefined;
    };
  };
  Chart?: {
    prototype: {
      getContainerBox?: (this: ChartInternals) => { width: number; height: number };
      firstRender?: (this: ChartInternals, ...args: unknown[]) => unknown;
    };
  };
  Pointer?: { prototype: { getChartPosition?: (this: PointerInternals) => unknown; chartPosition?: unknown } };
  addEvent?: (target: unknown, type: string, handler: (this: { renderer?: RendererInternals }) => void) => void;
}

const container = document.getElementById('chart');
let styled = false;
/** Set by each job: styled mode's sizes come from Highcharts' style sheet, so it keeps the browser's answers. */
export const setStyledMode = (on: boolean): void => {
  styled = on;
};

const LENGTH = /^(\d*\.?\d+)(px|em|rem|%)$/;
let rootPx: number | undefined;
const round = (px: number) => Math.round(px * 1e4) / 1e4;

/** An element's font size in px from inline declarations up to the container, or undefined to ask the browser. */
function inlineFontSize(element: Element | null): number | undefined {
  if (!element || !container) return undefined;
  if (element === container) return Number.parseFloat(getComputedStyle(container).fontSize);
  if (element.hasAttribute('font-size')) return undefined;
  const declared = (element as HTMLElement | SVGElement).style?.fontSize ?? '';
  if (!declared) return inlineFontSize(element.parentElement);
  const match = LENGTH.exec(declared.trim());
  if (!match) return undefined;
  const value = Number(match[1]);
  const unit = match[2];
  if (unit === 'px') return value;
  if (unit === 'rem') {
    rootPx ??= Number.parseFloat(getComputedStyle(document.documentElement).fontSize);
    return value * rootPx;
  }
  const parent = inlineFontSize(element.parentElement);
  return parent === undefined ? undefined : unit === 'em' ? value * parent : (value / 100) * parent;
}

/** Inline styles of the element and its SVG ancestors: what, with the text, decides its box outside styled mode. */
function styleChain(element: Element): string | undefined {
  let key = '';
  let node: Element | null = element;
  while (node && node instanceof SVGElement) {
    key += `|${node.getAttribute('style') ?? ''}`;
    // Only Highcharts' own SVG: D3's may set fonts as attributes, which the key does not hold.
    if (node.tagName === 'svg') return node.classList.contains('highcharts-root') ? key : undefined;
    node = node.parentElement;
  }
  return undefined; // not (yet) in a chart: no shared entry
}

const PX = /^\d+px$/;

/*
 * Two more forced layouts per chart that a page never resized nor pointed at has no use for:
 * - The container's box: Highcharts reads #chart's size (offsetWidth, scrollWidth, padding) before and after
 *   it adds its SVG, each a layout of a document just changed. main.ts sizes #chart with inline whole-pixel
 *   widths and heights and the host page gives it no padding or border, so the box is those numbers; a
 *   responsive chart (width 100%) keeps Highcharts' reading.
 * - The pointer's page position, which the chart computes and caches right after drawing (Highcharts #14973)
 *   for tooltips and mouse events, none of which happen here: while the chart is first drawn, an uncached
 *   answer; asked again later, it is measured as before.
 */
function skipUnusedLayouts(H: LayoutInternals | undefined): void {
  const chart = H?.Chart?.prototype;
  const getContainerBox = chart?.getContainerBox;
  if (chart && getContainerBox) {
    chart.getContainerBox = function () {
      const style = this.renderTo === container ? container?.style : undefined;
      if (style && PX.test(style.width) && PX.test(style.height) && !style.padding && !style.border)
        return { width: Number.parseInt(style.width, 10), height: Number.parseInt(style.height, 10) };
      return getContainerBox.call(this);
    };
  }
  const pointer = H?.Pointer?.prototype;
  const getChartPosition = pointer?.getChartPosition;
  const firstRender = chart?.firstRender;
  if (!chart || !firstRender || !pointer || !getChartPosition) return;
  let drawing = false;
  chart.firstRender = function (...args) {
    drawing = true;
    try {
      return firstRender.apply(this, args);
    } finally {
      drawing = false;
    }
  };
  pointer.getChartPosition = function () {
    if (drawing && !this.chartPosition) return { left: 0, top: 0, scaleX: 1, scaleY: 1 };
    return getChartPosition.call(this);
  };
}

/** Past this many entries the shared substring widths are dropped whole (a chart of long labels adds a few each). */
const SUBSTRING_CACHE_MAX = 20_000;

/*
 * Text widths: to fit a label in its slot (ellipsis, word wrap), Highcharts measures the label's substrings
 * with getSubStringLength, a layout each, as every label is added. Outside styled mode the width depends only
 * on the text element itself (its text, tspans and attributes, all in its markup), the inline styles of its
 * ancestors and the root font size, as for the text boxes above: charts share one cache keyed by all of them.
 * Only Highcharts asks for it on this page (D3's labels use getComputedTextLength).
 */
function cacheSubstringWidths(): void {
  const text = window.SVGTextContentElement?.prototype;
  const measure = text?.getSubStringLength;
  if (!text || !measure) return;
  const widths = new Map<string, number>();
  text.getSubStringLength = function (start, count) {
    const chain = styled ? undefined : styleChain(this);
    if (chain === undefined) return measure.call(this, start, count);
    rootPx ??= Number.parseFloat(getComputedStyle(document.documentElement).fontSize);
    const key = `${start}|${count}|${rootPx}|${this.outerHTML}${chain}`;
    let width = widths.get(key);
    if (width === undefined) {
      width = measure.call(this, start, count);
      if (widths.size >= SUBSTRING_CACHE_MAX) widths.clear();
      widths.set(key, width);
    }
    return width;
  };
}

/*
 * Rotated text boxes: Highcharts keeps no box of rotated text (the y axis title), measuring it again each time
 * it is asked, twice per chart, each a layout. The browser's box of a text element is in its own coordinates,
 * so it depends on the same things as its substring widths: those boxes are shared likewise, for text only.
 */
function cacheTextBoxes(): void {
  const graphics = window.SVGGraphicsElement?.prototype;
  const measure = graphics?.getBBox;
  if (!graphics || !measure) return;
  const boxes = new Map<string, DOMRect>();
  graphics.getBBox = function (options) {
    const chain = styled || this.tagName !== 'text' || options ? undefined : styleChain(this);
    if (chain === undefined) return measure.call(this, options);
    rootPx ??= Number.parseFloat(getComputedStyle(document.documentElement).fontSize);
    const key = `${rootPx}|${this.outerHTML}${chain}`;
    let box = boxes.get(key);
    if (box === undefined) {
      box = measure.call(this);
      if (boxes.size >= SUBSTRING_CACHE_MAX) boxes.clear();
      boxes.set(key, box);
    }
    // A copy: callers may change what they are given.
    return DOMRect.fromRect(box);
  };
}

export function cacheHighchartsLayout(H: LayoutInternals | undefined): void {
  skipUnusedLayouts(H);
  if (H) {
    cacheSubstringWidths();
    cacheTextBoxes();
  }
  const proto = H?.SVGElement?.prototype;
  const getStyle = proto?.getStyle;
  if (proto && getStyle) {
    proto.getStyle = function (prop) {
      if (prop === 'font-size' && !styled) {
        const element = this instanceof Element ? this : this.element;
        const px = inlineFontSize(element ?? null);
        if (px !== undefined) return `${round(px)}px`;
      }
      return getStyle.call(this, prop);
    };
  }
  const cacheKey = proto?.getBBoxCacheKey;
  if (!proto || !cacheKey || typeof H?.addEvent !== 'function' || !H.Chart) return;
  const shared: Record<string, unknown> = {};
  const sharedKeys: string[] = [];
  // Right after the chart makes its renderer, before it measures anything: one cache for all charts.
  H.addEvent(H.Chart, 'afterGetContainer', function () {
    const renderer = this.renderer;
    if (renderer && !renderer.styledMode) {
      renderer.cache = shared;
      renderer.cacheKeys = sharedKeys;
    }
  });
  proto.getBBoxCacheKey = function (keys) {
    const key = cacheKey.call(this, keys);
    if (key === undefined || this.renderer?.styledMode) return key;
    const chain = this.element ? styleChain(this.element) : undefined;
    return chain === undefined ? undefined : `${key}${chain}`;
  };
}
