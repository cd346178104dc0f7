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
export interface LayoutInternals {
  SVGElement?: {
    prototype: {
      getStyle?: (this: SvgWrapper | Element, prop: string) => string;
      getBBoxCacheKey?: (this: SvgWrapper, keys: unknown[]) => string | undefined;
    };
  };
  Chart?: unknown;
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
    if (node.tagName === 'svg') return key;
    node = node.parentElement;
  }
  return undefined; // not (yet) in a chart: no shared entry
}

export function cacheHighchartsLayout(H: LayoutInternals | undefined): void {
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
