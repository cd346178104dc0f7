/**
 * Raster output from a chart's laid-out SVG (Highcharts, D3), painted into a canvas with canvas calls and
 * encoded there: no second parse or layout of the SVG, no compositor capture.
 */
import { mimeOf } from './shared.ts';
import type { Drawn, PageChartConfig } from './types.ts';

/*
 * One canvas for the page's exports, kept between jobs: a new canvas pays for its backing store on its
 * first draw, which cost about as much as painting the whole chart (measured: a fresh 800×400 canvas's
 * first fill ≈ 15% of a Highcharts column chart's page time). Each job starts it blank with its default
 * state (`reset()`, or a new size, which does the same), and its image is encoded before the job ends.
 */
let shared: { canvas: HTMLCanvasElement; ctx: CanvasRenderingContext2D } | undefined;

/** A canvas of the output's size with what a screenshot would show behind the chart. */
export const rasterCanvas = (config: PageChartConfig): { canvas: HTMLCanvasElement; ctx: CanvasRenderingContext2D } => {
  const width = Math.round(config.width * window.devicePixelRatio);
  const height = Math.round(config.height * window.devicePixelRatio);
  if (!shared) {
    const canvas = document.createElement('canvas');
    shared = { canvas, ctx: canvas.getContext('2d') as CanvasRenderingContext2D };
  }
  const { canvas, ctx } = shared;
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
  } else ctx.reset();
  if (config.format === 'jpeg') {
    ctx.fillStyle = '#ffffff'; // the page's white under the chart (JPEG has no alpha)
    ctx.fillRect(0, 0, canvas.width, canvas.height);
  }
  ctx.fillStyle = 'transparent'; // a colour the canvas cannot parse must not leave white or black
  ctx.fillStyle = config.background;
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  return { canvas, ctx };
};

export const encoded = (canvas: HTMLCanvasElement, config: PageChartConfig): Drawn => {
  return { image: canvas.toDataURL(mimeOf(config.format), config.quality / 100), imageWidth: canvas.width, imageHeight: canvas.height };
};

const SHAPES = new Set(['rect', 'path', 'circle', 'ellipse', 'line', 'polyline', 'polygon']);
const NOT_PAINTED = new Set(['defs', 'desc', 'title', 'metadata', 'style', 'clipPath', 'filter', 'linearGradient', 'radialGradient']);
// Bidi text would need its visual order; the character positions below assume logical order.
const BIDI = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const LIST = /[\s,]/;
const number = (value: string | null): number => (value ? Number.parseFloat(value) : 0);
/** A colour to paint with, null for none, undefined for what the painter cannot do (gradients, patterns). */
const paintOf = (value: string): string | null | undefined => (value === 'none' ? null : value.startsWith('url(') ? undefined : value);

/** A rectangular clip in the user space of the element that refers to it (`m`: that element's CTM). */
interface Clip {
  x: number;
  y: number;
  w: number;
  h: number;
  m: DOMMatrix;
}
interface Paints {
  fill: string | null;
  stroke: string | null;
}
type PlanItem =
  | (Paints & { text: false; el: SVGGraphicsElement; tag: string; cs: CSSStyleDeclaration; m: DOMMatrix; clips: Clip[] })
  | (Paints & { text: true; value: string; x: number; y: number; cs: CSSStyleDeclaration; m: DOMMatrix; clips: Clip[] });
interface TextRun {
  start: number;
  text: string;
  el: Element;
  hidden: boolean;
}

/** { fill, stroke } colours to paint with (null for none), or undefined for what the painter cannot do. */
const paintsOf = (cs: CSSStyleDeclaration): Paints | undefined => {
  const fill = paintOf(cs.fill);
  const stroke = paintOf(cs.stroke);
  if (fill === undefined || stroke === undefined) return undefined;
  if (!stroke) return { fill, stroke: null };
  if (cs.strokeWidth.endsWith('%') || cs.strokeDasharray.includes('%')) return undefined;
  return { fill, stroke: Number.parseFloat(cs.strokeWidth) > 0 ? stroke : null };
};

/** Visibility is tracked here rather than read: the page keeps the whole container hidden. */
const visibilityOf = (el: Element, inherited: boolean): boolean => {
  const own = (el as SVGElement).style.visibility || el.getAttribute('visibility') || '';
  return own === 'hidden' || own === 'collapse' ? true : own === 'visible' ? false : inherited;
};
/** Several values in a positioning attribute place characters one by one, which the painter does not do. */
const positionsEach = (el: Element, ...names: string[]): boolean => names.some((name) => LIST.test((el.getAttribute(name) ?? '').trim()));

/**
 * What to paint, item by item, read from the laid-out page; false when the SVG uses anything the painter
 * does not reproduce exactly.
 */
class PaintPlan {
  readonly items: PlanItem[] = [];
  private readonly clipCache = new Map<string, Omit<Clip, 'm'> | null>();

  constructor(private readonly svg: SVGSVGElement) {}

  private clipOf(el: SVGGraphicsElement, cs: CSSStyleDeclaration): Clip | null | undefined {
    const ref = cs.clipPath;
    if (!ref || ref === 'none') return null;
    const id = /^url\(["']?#([^"')]+)["']?\)$/.exec(ref)?.[1];
    if (!id) return undefined;
    let shape = this.clipCache.get(id);
    if (shape === undefined) {
      const clip = this.svg.querySelector(`clipPath[id="${CSS.escape(id)}"]`);
      const first = clip?.firstElementChild;
      const rect = clip?.children.length === 1 && first?.tagName === 'rect' ? first : null;
      const units = clip?.getAttribute('clipPathUnits');
      const simple = rect && !rect.hasAttribute('transform') && !clip?.hasAttribute('transform') && (!units || units === 'userSpaceOnUse');
      shape = simple
        ? {
            x: number(rect.getAttribute('x')),
            y: number(rect.getAttribute('y')),
            w: number(rect.getAttribute('width')),
            h: number(rect.getAttribute('height')),
          }
        : null;
      this.clipCache.set(id, shape);
    }
    // In the user space of the element that refers to it (its own transform included).
    return shape ? { ...shape, m: el.getCTM() as DOMMatrix } : undefined;
  }

  walk(el: SVGGraphicsElement, clips: Clip[], hidden: boolean): boolean {
    const tag = el.tagName;
    if (NOT_PAINTED.has(tag)) return true;
    const cs = getComputedStyle(el);
    if (cs.display === 'none') return true;
    const isHidden = visibilityOf(el, hidden);
    if (cs.filter !== 'none' || cs.mask !== 'none' || cs.vectorEffect !== 'none') return false;
    const opacity = Number(cs.opacity);
    const clip = this.clipOf(el, cs);
    if (clip === undefined) return false;
    const stack = clip ? [...clips, clip] : clips;
    if (tag === 'g' || el === this.svg) {
      if (opacity === 0) return true; // e.g. data labels Highcharts hid for overlapping
      if (opacity !== 1) return false; // would need the group composited as a layer
      // (Index loops: the lib has no DOM.Iterable, and the painter runs per chart.)
      const children = el.children;
      for (let i = 0; i < children.length; i++) if (!this.walk(children[i] as SVGGraphicsElement, stack, isHidden)) return false;
      return true;
    }
    if (SHAPES.has(tag)) {
      if (isHidden) return true;
      const paints = paintsOf(cs);
      if (!paints) return false;
      if (opacity !== 1 && paints.fill && paints.stroke) return false; // fill and stroke would be composited as one layer
      if (cs.shapeRendering === 'crispEdges' || cs.markerStart !== 'none' || cs.markerMid !== 'none' || cs.markerEnd !== 'none')
        return false;
      if (cs.paintOrder !== 'normal' && !cs.paintOrder.startsWith('fill')) return false;
      this.items.push({ text: false, el, tag, cs, ...paints, m: el.getCTM() as DOMMatrix, clips: stack });
      return true;
    }
    if (tag === 'text') return this.text(el as SVGTextElement, cs, stack, isHidden);
    return false; // image, foreignObject, use, a, switch…
  }

  private text(el: SVGTextElement, cs: CSSStyleDeclaration, stack: Clip[], isHidden: boolean): boolean {
    if (el.hasAttribute('textLength') || positionsEach(el, 'x', 'y')) return false;
    if (BIDI.test(el.textContent ?? '') || cs.direction !== 'ltr' || cs.writingMode !== 'horizontal-tb') return false;
    // Each text node is painted in one call, from where the page put its first character.
    const runs: TextRun[] = [];
    let length = 0;
    const collect = (node: Element, nodeHidden: boolean): boolean => {
      const nodes = node.childNodes;
      for (let i = 0; i < nodes.length; i++) {
        const child = nodes[i] as ChildNode;
        if (child.nodeType === Node.TEXT_NODE) {
          const data = (child as Text).data;
          runs.push({ start: length, text: data, el: node, hidden: nodeHidden });
          length += data.length;
        } else if (child.nodeType === Node.ELEMENT_NODE) {
          const element = child as Element;
          if (element.tagName !== 'tspan' || element.hasAttribute('rotate') || element.hasAttribute('textLength')) return false;
          if (positionsEach(element, 'x', 'y', 'dx', 'dy')) return false;
          if (collect(element, visibilityOf(element, nodeHidden)) === false) return false;
        }
      }
      return true;
    };
    if (!collect(el, isHidden)) return false;
    // Collapsed white space would shift every index after it.
    if (el.getNumberOfChars() !== length) return false;
    const m = el.getCTM() as DOMMatrix;
    for (const run of runs) {
      if (run.hidden || !run.text) continue;
      const rcs = run.el === el ? cs : getComputedStyle(run.el);
      if (rcs.display === 'none') continue;
      const paints = paintsOf(rcs);
      if (!paints) return false;
      const runOpacity = Number(rcs.opacity);
      if (runOpacity === 0) continue;
      if (!plainText(rcs, runOpacity)) return false;
      const at = el.getStartPositionOfChar(run.start);
      this.items.push({ text: true, value: run.text, x: at.x, y: at.y, cs: rcs, ...paints, m, clips: stack });
    }
    return true;
  }
}

/** Text the canvas draws exactly as SVG does: no decoration, spacing, shift, shadow or variant. */
const plainText = (rcs: CSSStyleDeclaration, runOpacity: number): boolean => {
  if (runOpacity !== 1 || rcs.textDecorationLine !== 'none' || rcs.letterSpacing !== 'normal' || rcs.wordSpacing !== '0px') return false;
  if (rcs.dominantBaseline !== 'auto' || rcs.baselineShift !== '0px' || rcs.textShadow !== 'none' || rcs.fontStretch !== '100%')
    return false;
  if (rcs.fontVariant !== 'normal' || (rcs.paintOrder !== 'normal' && !rcs.paintOrder.startsWith('fill'))) return false;
  if (rcs.fontStyle !== 'normal' && rcs.fontStyle !== 'italic') return false; // e.g. oblique 10deg: no canvas font
  return true;
};

const attr = (el: Element, name: string): number => number(el.getAttribute(name));

const pathOf = (item: Extract<PlanItem, { text: false }>): Path2D => {
  const el = item.el;
  switch (item.tag) {
    case 'path':
      return new Path2D(el.getAttribute('d') ?? '');
    case 'rect': {
      const path = new Path2D();
      const [x, y, w, h] = [attr(el, 'x'), attr(el, 'y'), attr(el, 'width'), attr(el, 'height')];
      const rx = Math.min(el.hasAttribute('rx') ? attr(el, 'rx') : attr(el, 'ry'), w / 2);
      const ry = Math.min(el.hasAttribute('ry') ? attr(el, 'ry') : attr(el, 'rx'), h / 2);
      if (rx > 0 && ry > 0) path.roundRect(x, y, w, h, [{ x: rx, y: ry }]);
      else path.rect(x, y, w, h);
      return path;
    }
    case 'circle': {
      const path = new Path2D();
      path.arc(attr(el, 'cx'), attr(el, 'cy'), attr(el, 'r'), 0, Math.PI * 2);
      return path;
    }
    case 'ellipse': {
      const path = new Path2D();
      path.ellipse(attr(el, 'cx'), attr(el, 'cy'), attr(el, 'rx'), attr(el, 'ry'), 0, 0, Math.PI * 2);
      return path;
    }
    case 'line':
      return new Path2D(`M${attr(el, 'x1')},${attr(el, 'y1')}L${attr(el, 'x2')},${attr(el, 'y2')}`);
    default:
      return new Path2D(`M${(el.getAttribute('points') ?? '').trim()}${item.tag === 'polygon' ? 'Z' : ''}`);
  }
};

/** Replays a plan into `ctx` at the page's device pixel ratio. */
const paintPlan = (ctx: CanvasRenderingContext2D, plan: readonly PlanItem[]): void => {
  const dpr = window.devicePixelRatio;
  const base = (m: DOMMatrix) => {
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.transform(m.a, m.b, m.c, m.d, m.e, m.f);
  };
  const strokeStyle = (cs: CSSStyleDeclaration, color: string) => {
    ctx.strokeStyle = color;
    ctx.lineWidth = Number.parseFloat(cs.strokeWidth);
    ctx.lineCap = cs.strokeLinecap as CanvasLineCap;
    ctx.lineJoin = cs.strokeLinejoin as CanvasLineJoin;
    ctx.miterLimit = Number(cs.strokeMiterlimit);
    const dash = cs.strokeDasharray;
    ctx.setLineDash(dash === 'none' ? [] : dash.split(/[\s,]+/).map(Number.parseFloat));
    ctx.lineDashOffset = Number.parseFloat(cs.strokeDashoffset) || 0;
  };

  let clipped: Clip[] | null = null; // the clip stack currently applied (between one save and restore)
  for (const item of plan) {
    if (item.clips !== clipped) {
      if (clipped) ctx.restore();
      clipped = null;
      if (item.clips.length) {
        ctx.save();
        for (const c of item.clips) {
          base(c.m);
          ctx.beginPath();
          ctx.rect(c.x, c.y, c.w, c.h);
          ctx.clip();
        }
        clipped = item.clips;
      }
    }
    base(item.m);
    const cs = item.cs;
    const opacity = Number(cs.opacity);
    if (!item.text) {
      const path = pathOf(item);
      if (item.fill) {
        ctx.globalAlpha = opacity * Number(cs.fillOpacity);
        ctx.fillStyle = item.fill;
        ctx.fill(path, cs.fillRule === 'evenodd' ? 'evenodd' : 'nonzero');
      }
      if (item.stroke) {
        ctx.globalAlpha = opacity * Number(cs.strokeOpacity);
        strokeStyle(cs, item.stroke);
        ctx.stroke(path);
      }
      continue;
    }
    ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    // SVG text kerns by default; the canvas's "auto" would not.
    ctx.fontKerning = cs.fontKerning === 'none' ? 'none' : 'normal';
    ctx.textAlign = 'left';
    ctx.textBaseline = 'alphabetic';
    if (item.fill) {
      ctx.globalAlpha = Number(cs.fillOpacity);
      ctx.fillStyle = item.fill;
      ctx.fillText(item.value, item.x, item.y);
    }
    if (item.stroke) {
      ctx.globalAlpha = Number(cs.strokeOpacity);
      strokeStyle(cs, item.stroke);
      ctx.strokeText(item.value, item.x, item.y);
    }
  }
  if (clipped) ctx.restore();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.globalAlpha = 1;
};

/**
 * Paints the live chart's SVG into `ctx` with canvas calls, or answers false, having painted nothing
 * worth keeping, when the SVG uses anything outside what it reproduces exactly: shapes and text (with
 * fill, stroke, dashes, opacity on single shapes, fill/stroke opacity, kerning, text outlines), groups
 * and transforms, and rectangular clip paths. Filters other than none, masks, gradients, patterns, group
 * opacity, images, markers, links, letter-spacing, text decorations and bidi text are left to the
 * SVG-as-image route (highcharts.ts). Everything is read from the laid-out page (getCTM, character
 * positions, computed style), so nothing is parsed or laid out a second time, which is what the
 * SVG-as-image route costs (~5 ms for a column chart). Both routes end in the same Skia calls: the test
 * suite holds them to the same pixels.
 */
export const paintSvg = (svg: SVGSVGElement, ctx: CanvasRenderingContext2D): boolean => {
  const plan = new PaintPlan(svg);
  if (!plan.walk(svg, [], visibilityOf(svg, false))) return false;
  paintPlan(ctx, plan.items);
  return true;
};

/** The chart painted and encoded by `paintSvg`, or null where it declines (or a test asks for the other route). */
export const painted = (svg: SVGSVGElement, config: PageChartConfig): Drawn | null => {
  if (config.exportVia === 'image') return null;
  const { canvas, ctx } = rasterCanvas(config);
  return paintSvg(svg, ctx) ? { ...encoded(canvas, config), via: 'paint' } : null;
};
