/*
 * Runs INSIDE the chart pool's warm Chromium page (not in Node), once per page, after chart.js, d3 and
 * Highcharts have been inlined by chart-host.ts. It is plain JavaScript on purpose: it reaches the page as
 * text, with no transpiler helpers that would be missing there.
 *
 * window.__renderChart(config) draws one chart synchronously into #chart (animations off) and answers
 * { ok: true, svg?, image? } or { ok: false, message }; directly, or as a promise when it exports the chart
 * as an image (Highcharts raster output). window.__destroyChart() empties the container so the page
 * stays warm and holds nothing of the previous job. `config` is plain JSON built by chart-config.ts; nothing
 * in it is ever evaluated.
 *
 * D3 chart types and data shape (documented for users in packages/contracts/src/chart.ts):
 *   bar | line | area | pie | donut : { labels: (string|number)[], datasets: [{ label?, data: (number|null)[], color? }] }
 *   scatter                         : { datasets: [{ label?, data: [{ x, y, r? }], color? }] }
 *   options: title, xAxisLabel, yAxisLabel, legend, stacked, horizontal, curve, innerRadius, showValues, grid,
 *            fontSize, fontFamily, textColor
 */
(() => {
  const container = document.getElementById('chart');
  let current = null;

  const destroy = () => {
    if (current) {
      try {
        current.destroy();
      } catch {
        // A chart that failed half-way may not destroy cleanly; emptying the container below is enough.
      }
      current = null;
    }
    container.replaceChildren();
    // Highcharts keeps a global slot per chart ever made (undefined once destroyed); trim it on a warm page.
    const all = window.Highcharts?.charts;
    if (all?.every((c) => !c)) all.length = 0;
  };

  const probe = document.createElement('canvas').getContext('2d');
  /** Any CSS colour with the given alpha, via the canvas's own colour parser. */
  const withAlpha = (color, alpha) => {
    probe.fillStyle = '#000000';
    probe.fillStyle = color;
    const parsed = String(probe.fillStyle);
    if (parsed.startsWith('#')) {
      const n = Number.parseInt(parsed.slice(1), 16);
      return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
    }
    const m = /^rgba?\(([^)]+)\)$/.exec(parsed);
    if (!m) return color;
    const [r, g, b] = m[1].split(',').map((s) => s.trim());
    return `rgba(${r}, ${g}, ${b}, ${alpha})`;
  };

  /** What the page exports itself (the worker asks for PNG when Chromium cannot encode the format, e.g. AVIF). */
  const isRaster = (format) => format === 'png' || format === 'jpeg' || format === 'webp';
  const mimeOf = (format) => (format === 'jpeg' ? 'image/jpeg' : format === 'webp' ? 'image/webp' : 'image/png');

  // ---------------------------------------------------------------- Chart.js

  const ARC_TYPES = new Set(['pie', 'doughnut', 'polarArea']);
  const FILL_TYPES = new Set(['line', 'radar']);

  /** The palette fills in only what a dataset leaves unset, so explicit dataset colours still win. */
  const applyChartJsPalette = (type, data, colors) => {
    if (!colors.length || !Array.isArray(data.datasets)) return;
    data.datasets.forEach((ds, i) => {
      const dsType = ds.type || type;
      const c = colors[i % colors.length];
      if (ARC_TYPES.has(dsType)) {
        if (ds.backgroundColor === undefined) {
          // data may also be an object map ({ label: value }), one slice per key.
          const n = Array.isArray(ds.data) ? ds.data.length : ds.data && typeof ds.data === 'object' ? Object.keys(ds.data).length : 0;
          ds.backgroundColor = Array.from({ length: n }, (_, j) => {
            const slice = colors[j % colors.length];
            return dsType === 'polarArea' ? withAlpha(slice, 0.7) : slice;
          });
        }
      } else if (FILL_TYPES.has(dsType)) {
        if (ds.borderColor === undefined) ds.borderColor = c;
        if (ds.backgroundColor === undefined) ds.backgroundColor = withAlpha(c, 0.4);
        if (ds.pointBackgroundColor === undefined) ds.pointBackgroundColor = c;
      } else {
        if (ds.backgroundColor === undefined) ds.backgroundColor = c;
        if (ds.borderColor === undefined) ds.borderColor = c;
      }
    });
  };

  /**
   * Time scales use the inlined date-fns adapter (chart-host.ts). JSON cannot hold date-fns's locale object,
   * so a config names it (`scales.<id>.adapters.date.locale: "fr"`, "de-AT", "zh_CN", "en"); it is looked up
   * among date-fns's own locales by exact code, else by language (else that language's first region); an
   * unknown name fails the chart with a clear message. Nothing is evaluated.
   */
  const DATE_LOCALES = window.dateFns?.locale ?? {};
  const dateLocale = (name) => {
    const [lang = '', ...parts] = name.trim().split(/[-_]/);
    const region = parts.map((p) => (p.length === 4 ? p[0].toUpperCase() + p.slice(1).toLowerCase() : p.toUpperCase())).join('');
    const language = lang.toLowerCase();
    const key =
      [language + region, language, `${language}US`].find((k) => Object.hasOwn(DATE_LOCALES, k)) ??
      // A bare language date-fns only has per region ("zh" → zhCN): its first region.
      Object.keys(DATE_LOCALES).find((k) => language && k.startsWith(language) && /^[A-Z]/.test(k.slice(language.length)));
    if (!key) throw new Error(`unknown date locale "${name.slice(0, 40)}"`);
    return DATE_LOCALES[key];
  };
  const isJsonObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
  const applyDateLocales = (options) => {
    if (!isJsonObject(options.scales)) return;
    for (const scale of Object.values(options.scales)) {
      const date = isJsonObject(scale) && isJsonObject(scale.adapters) ? scale.adapters.date : undefined;
      if (isJsonObject(date) && typeof date.locale === 'string') date.locale = dateLocale(date.locale);
    }
  };

  /**
   * chartjs-plugin-datalabels is opt-in: registered globally it would label every chart. It is attached to a
   * chart only when the config configures it: `options.plugins.datalabels` or a dataset's `datalabels` set
   * (to anything but false). chartjs-plugin-annotation registers itself and draws only configured annotations.
   */
  const wantsDataLabels = (data, options) => {
    const configured = (v) => v !== undefined && v !== false;
    if (isJsonObject(options.plugins) && configured(options.plugins.datalabels)) return true;
    return Array.isArray(data.datasets) && data.datasets.some((ds) => isJsonObject(ds) && configured(ds.datalabels));
  };

  const renderChartJs = (config) => {
    const canvas = document.createElement('canvas');
    const options = config.options;
    applyDateLocales(options);
    if (config.responsiveWidth) {
      // Responsive mode sizes the canvas from its parent: give it one that is exactly the image.
      const box = document.createElement('div');
      box.style.cssText = `position:relative;width:100%;height:${config.height}px`;
      box.append(canvas);
      container.append(box);
    } else {
      canvas.width = config.width;
      canvas.height = config.height;
      canvas.style.cssText = `display:block;width:${config.width}px;height:${config.height}px`;
      container.append(canvas);
    }
    applyChartJsPalette(config.chartType, config.data, config.colors);
    // The background is painted into the canvas itself, so the canvas alone is the finished image.
    const background = {
      id: '__renderBackground',
      beforeDraw(chart) {
        if (config.background === 'transparent') return;
        const { ctx, width, height } = chart;
        ctx.save();
        ctx.globalCompositeOperation = 'destination-over';
        ctx.fillStyle = config.background;
        ctx.fillRect(0, 0, width, height);
        ctx.restore();
      },
    };
    const plugins = wantsDataLabels(config.data, options) && window.ChartDataLabels ? [background, window.ChartDataLabels] : [background];
    current = new window.Chart(canvas, { type: config.chartType, data: config.data, options, plugins });
    // A fixed-size canvas is exported here: encoding the drawn canvas is cheaper than a page screenshot,
    // which must first get the canvas through the compositor. Chart.js sizes the backing store by the
    // device pixel ratio, i.e. the requested scale.
    const exportable =
      !config.responsiveWidth &&
      (config.format === 'png' || config.format === 'webp' || (config.format === 'jpeg' && config.background !== 'transparent'));
    if (!exportable) return {};
    return { image: canvas.toDataURL(mimeOf(config.format), config.quality / 100), imageWidth: canvas.width, imageHeight: canvas.height };
  };

  // ---------------------------------------------------------------- Highcharts

  const INHERITED = ['font-family', 'font-size', 'font-style', 'font-weight', 'letter-spacing', 'word-spacing', 'color'];
  const attribute = (value) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

  const PALETTE = /<style\b[^>]*class="highcharts-palette"[^>]*>[^<]*<\/style>/;

  /**
   * The chart's SVG as a document of its own that renders as it does in the page. In an image the SVG is
   * the root, so whatever it inherited here (chart.style sizes in em, fonts set on the container) and what
   * rem means would be lost: a wrapper root carries the page root's font size (rem), and a group the
   * values the SVG inherits from its parent. The group also carries the palette's colour variables, as
   * computed here: the image then needs no style sheet, which alone would cost it a third of its decoding.
   */
  const standaloneSvg = (svg, config) => {
    const inherited = getComputedStyle(svg.parentElement);
    const declarations = INHERITED.map((name) => `${name}:${inherited.getPropertyValue(name)}`);
    let markup = new XMLSerializer().serializeToString(svg);
    const palette = svg.querySelector('style.highcharts-palette');
    if (palette && PALETTE.test(markup)) {
      const own = getComputedStyle(svg);
      for (const name of new Set(palette.textContent.match(/--[\w-]+/g))) declarations.push(`${name}:${own.getPropertyValue(name)}`);
      markup = markup.replace(PALETTE, '');
    }
    const rootFontSize = getComputedStyle(document.documentElement).fontSize;
    return (
      `<svg xmlns="http://www.w3.org/2000/svg" width="${config.width}" height="${config.height}" style="font-size:${attribute(rootFontSize)}">` +
      `${styledModeCss(config)}<g style="${attribute(declarations.join(';'))}">${markup}</g></svg>`
    );
  };

  /*
   * Styled mode: Highcharts draws classes only and leaves every colour, stroke and font size to its style
   * sheet (highcharts.css), inlined by chart-host.ts as a disabled <style>. It is switched on for styled
   * charts only (its rules would override the attributes of ordinary ones), and exported SVG carries it,
   * with the colour scheme the page used, since an SVG without it has black shapes and unsized text.
   */
  const stylesheet = document.getElementById('highcharts-css');
  const isStyled = (config) => config.options?.chart?.styledMode === true;
  const styledModeCss = (config) => {
    if (!isStyled(config) || !stylesheet) return '';
    // What the SVG inherits from the chart's container in the page (its font and colour scheme).
    const outer = getComputedStyle(current.container);
    const scheme = outer.colorScheme === 'light' || outer.colorScheme === 'dark' ? `color-scheme:${outer.colorScheme};` : '';
    const root = `.highcharts-root{${scheme}font-family:${outer.fontFamily};font-size:${outer.fontSize}}`;
    const css = `${stylesheet.textContent}${root}`.replace(/&/g, '&amp;').replace(/</g, '&lt;');
    return `<style>${css}</style>`;
  };

  /** A canvas of the output's size with what a screenshot would show behind the chart. */
  const rasterCanvas = (config) => {
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(config.width * window.devicePixelRatio);
    canvas.height = Math.round(config.height * window.devicePixelRatio);
    const ctx = canvas.getContext('2d');
    if (config.format === 'jpeg') {
      ctx.fillStyle = '#ffffff'; // the page's white under the chart (JPEG has no alpha)
      ctx.fillRect(0, 0, canvas.width, canvas.height);
    }
    ctx.fillStyle = 'transparent'; // a colour the canvas cannot parse must not leave white or black
    ctx.fillStyle = config.background;
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    return { canvas, ctx };
  };

  const encoded = (canvas, config) => {
    return { image: canvas.toDataURL(mimeOf(config.format), config.quality / 100), imageWidth: canvas.width, imageHeight: canvas.height };
  };

  /**
   * Raster output from the chart's own SVG, drawn into a canvas as an image and encoded there: the route
   * for charts `paintSvg` declines. A page screenshot costs more CPU in all (a compositor frame, the
   * capture, encoding in the browser). Highcharts has already laid out and measured everything in the page;
   * the image only replays the finished markup with the same local fonts, so it matches a screenshot (only
   * the anti-aliasing of slanted edges may differ by a few levels). Resolves to {} when the page must be
   * captured after all.
   */
  const exportSvg = (svg, config) => {
    const image = new Image();
    image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(standaloneSvg(svg, config))}`;
    return image
      .decode()
      .then(() => {
        const { canvas, ctx } = rasterCanvas(config);
        ctx.drawImage(image, 0, 0, canvas.width, canvas.height);
        return encoded(canvas, config);
      })
      .catch(() => ({}));
  };

  // ---------------------------------------------------------------- SVG → canvas painter

  const SHAPES = new Set(['rect', 'path', 'circle', 'ellipse', 'line', 'polyline', 'polygon']);
  const NOT_PAINTED = new Set(['defs', 'desc', 'title', 'metadata', 'style', 'clipPath', 'filter', 'linearGradient', 'radialGradient']);
  // Bidi text would need its visual order; the character positions below assume logical order.
  const BIDI = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
  const LIST = /[\s,]/;
  const number = (value) => (value ? Number.parseFloat(value) : 0);
  /** A colour to paint with, null for none, undefined for what the painter cannot do (gradients, patterns). */
  const paintOf = (value) => (value === 'none' ? null : value.startsWith('url(') ? undefined : value);

  /**
   * Paints the live chart's SVG into `ctx` with canvas calls, or answers false, having painted nothing
   * worth keeping, when the SVG uses anything outside what it reproduces exactly: shapes and text (with
   * fill, stroke, dashes, opacity on single shapes, fill/stroke opacity, kerning, text outlines), groups
   * and transforms, and rectangular clip paths. Filters other than none, masks, gradients, patterns, group
   * opacity, images, markers, links, letter-spacing, text decorations and bidi text are left to
   * `exportSvg`. Everything is read from the laid-out page (getCTM, character positions, computed style),
   * so nothing is parsed or laid out a second time, which is what the SVG-as-image route costs (~5 ms for a
   * column chart). Both routes end in the same Skia calls: the test suite holds them to the same pixels.
   */
  const paintSvg = (svg, ctx) => {
    const dpr = window.devicePixelRatio;
    const plan = [];
    const clipCache = new Map();

    const clipOf = (el, cs) => {
      const ref = cs.clipPath;
      if (!ref || ref === 'none') return null;
      const id = /^url\(["']?#([^"')]+)["']?\)$/.exec(ref)?.[1];
      if (!id) return undefined;
      let shape = clipCache.get(id);
      if (shape === undefined) {
        const clip = svg.querySelector(`clipPath[id="${CSS.escape(id)}"]`);
        const rect = clip?.children.length === 1 && clip.firstElementChild.tagName === 'rect' ? clip.firstElementChild : null;
        const units = clip?.getAttribute('clipPathUnits');
        const simple = rect && !rect.hasAttribute('transform') && !clip.hasAttribute('transform') && (!units || units === 'userSpaceOnUse');
        shape = simple
          ? {
              x: number(rect.getAttribute('x')),
              y: number(rect.getAttribute('y')),
              w: number(rect.getAttribute('width')),
              h: number(rect.getAttribute('height')),
            }
          : null;
        clipCache.set(id, shape);
      }
      // In the user space of the element that refers to it (its own transform included).
      return shape ? { ...shape, m: el.getCTM() } : undefined;
    };

    /** { fill, stroke } colours to paint with (null for none), or undefined for what the painter cannot do. */
    const paintsOf = (cs) => {
      const fill = paintOf(cs.fill);
      const stroke = paintOf(cs.stroke);
      if (fill === undefined || stroke === undefined) return undefined;
      if (!stroke) return { fill, stroke: null };
      if (cs.strokeWidth.endsWith('%') || cs.strokeDasharray.includes('%')) return undefined;
      return { fill, stroke: Number.parseFloat(cs.strokeWidth) > 0 ? stroke : null };
    };

    /** Visibility is tracked here rather than read: the page keeps the whole container hidden. */
    const visibilityOf = (el, inherited) => {
      const own = el.style.visibility || el.getAttribute('visibility') || '';
      return own === 'hidden' || own === 'collapse' ? true : own === 'visible' ? false : inherited;
    };
    /** Several values in a positioning attribute place characters one by one, which the painter does not do. */
    const positionsEach = (el, ...names) => names.some((name) => LIST.test((el.getAttribute(name) ?? '').trim()));

    const walk = (el, clips, hidden) => {
      const tag = el.tagName;
      if (NOT_PAINTED.has(tag)) return true;
      const cs = getComputedStyle(el);
      if (cs.display === 'none') return true;
      const isHidden = visibilityOf(el, hidden);
      if (cs.filter !== 'none' || cs.mask !== 'none' || cs.vectorEffect !== 'none') return false;
      const opacity = Number(cs.opacity);
      const clip = clipOf(el, cs);
      if (clip === undefined) return false;
      const stack = clip ? [...clips, clip] : clips;
      if (tag === 'g' || el === svg) {
        if (opacity === 0) return true; // e.g. data labels Highcharts hid for overlapping
        if (opacity !== 1) return false; // would need the group composited as a layer
        for (const child of el.children) if (!walk(child, stack, isHidden)) return false;
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
        plan.push({ text: false, el, tag, cs, ...paints, m: el.getCTM(), clips: stack });
        return true;
      }
      if (tag === 'text') {
        if (el.hasAttribute('textLength') || positionsEach(el, 'x', 'y')) return false;
        if (BIDI.test(el.textContent) || cs.direction !== 'ltr' || cs.writingMode !== 'horizontal-tb') return false;
        // Each text node is painted in one call, from where the page put its first character.
        const runs = [];
        let length = 0;
        const collect = (node, nodeHidden) => {
          for (const child of node.childNodes) {
            if (child.nodeType === Node.TEXT_NODE) {
              runs.push({ start: length, text: child.data, el: node, hidden: nodeHidden });
              length += child.data.length;
            } else if (child.nodeType === Node.ELEMENT_NODE) {
              if (child.tagName !== 'tspan' || child.hasAttribute('rotate') || child.hasAttribute('textLength')) return false;
              if (positionsEach(child, 'x', 'y', 'dx', 'dy')) return false;
              if (collect(child, visibilityOf(child, nodeHidden)) === false) return false;
            }
          }
          return true;
        };
        if (!collect(el, isHidden)) return false;
        // Collapsed white space would shift every index after it.
        if (el.getNumberOfChars() !== length) return false;
        const m = el.getCTM();
        for (const run of runs) {
          if (run.hidden || !run.text) continue;
          const rcs = run.el === el ? cs : getComputedStyle(run.el);
          if (rcs.display === 'none') continue;
          const paints = paintsOf(rcs);
          if (!paints) return false;
          const runOpacity = Number(rcs.opacity);
          if (runOpacity === 0) continue;
          if (runOpacity !== 1 || rcs.textDecorationLine !== 'none' || rcs.letterSpacing !== 'normal' || rcs.wordSpacing !== '0px')
            return false;
          if (rcs.dominantBaseline !== 'auto' || rcs.baselineShift !== '0px' || rcs.textShadow !== 'none' || rcs.fontStretch !== '100%')
            return false;
          if (rcs.fontVariant !== 'normal' || (rcs.paintOrder !== 'normal' && !rcs.paintOrder.startsWith('fill'))) return false;
          if (rcs.fontStyle !== 'normal' && rcs.fontStyle !== 'italic') return false; // e.g. oblique 10deg: no canvas font
          const at = el.getStartPositionOfChar(run.start);
          plan.push({ text: true, value: run.text, x: at.x, y: at.y, cs: rcs, ...paints, m, clips: stack });
        }
        return true;
      }
      return false; // image, foreignObject, use, a, switch…
    };
    if (!walk(svg, [], visibilityOf(svg, false))) return false;

    const base = (m) => {
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.transform(m.a, m.b, m.c, m.d, m.e, m.f);
    };
    const strokeStyle = (cs, color) => {
      ctx.strokeStyle = color;
      ctx.lineWidth = Number.parseFloat(cs.strokeWidth);
      ctx.lineCap = cs.strokeLinecap;
      ctx.lineJoin = cs.strokeLinejoin;
      ctx.miterLimit = Number(cs.strokeMiterlimit);
      const dash = cs.strokeDasharray;
      ctx.setLineDash(dash === 'none' ? [] : dash.split(/[\s,]+/).map(Number.parseFloat));
      ctx.lineDashOffset = Number.parseFloat(cs.strokeDashoffset) || 0;
    };
    const attr = (el, name) => number(el.getAttribute(name));
    const pathOf = (item) => {
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

    let clipped = null; // the clip stack currently applied (between one save and restore)
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
    return true;
  };

  /** The chart painted and encoded by `paintSvg`, or null where it declines (or a test asks for the other route). */
  const painted = (svg, config) => {
    if (config.exportVia === 'image') return null;
    const { canvas, ctx } = rasterCanvas(config);
    return paintSvg(svg, ctx) ? { ...encoded(canvas, config), via: 'paint' } : null;
  };

  /** Highcharts PNG/JPEG: painted directly when `paintSvg` can, else through an image of its SVG. */
  const rasterize = (svg, config) =>
    painted(svg, config) ?? exportSvg(svg, config).then((result) => (result.image ? { ...result, via: 'image' } : result));

  /*
   * Two per-chart costs of Highcharts that give the same result for less work (about 1.5 ms of a ~25 ms
   * column chart), installed once per page:
   * - Text without markup: Highcharts parses every label through DOMParser (a new HTML document each time)
   *   to build its text AST. For a string with no '<' or '&' (nor the CR and NUL the HTML parser would
   *   rewrite), that parse can only answer one text node holding the trimmed string, so answer it directly.
   * - Date formats: every chart builds a new Time object whose Intl.DateTimeFormat cache starts empty, and
   *   creating those formatters is slow. Their cache key covers everything but the time zone, so charts
   *   share one cache per time zone.
   */
  const speedUpHighcharts = (H) => {
    const ast = H?.AST?.prototype;
    if (ast && typeof ast.parseMarkup === 'function') {
      const parseMarkup = ast.parseMarkup;
      ast.parseMarkup = function (markup) {
        // (Highcharts also rewrites ` style="` before parsing, even in plain text; such strings keep its path.)
        if (typeof markup === 'string' && !/[<&\r\0]| style=["']/.test(markup)) {
          const text = markup.trim();
          return text ? [{ tagName: '#text', textContent: text }] : [];
        }
        return parseMarkup.call(this, markup);
      };
    }
    const time = H?.Time?.prototype;
    if (time && typeof time.dateTimeFormat === 'function') {
      const dateTimeFormat = time.dateTimeFormat;
      const caches = new Map();
      time.dateTimeFormat = function (...args) {
        const zone = String(this.timezone);
        let cache = caches.get(zone);
        if (!cache) {
          cache = {};
          caches.set(zone, cache);
        }
        this.dTLCache = cache;
        return dateTimeFormat.apply(this, args);
      };
    }
  };
  speedUpHighcharts(window.Highcharts);

  const renderHighcharts = (config) => {
    const styled = isStyled(config);
    if (stylesheet) stylesheet.media = styled ? 'all' : 'not all';
    // The sheet's light-dark() colours follow these classes (chart-config.ts pins the scheme to the theme).
    const scheme = styled ? config.options.palette?.colorScheme : undefined;
    container.classList.toggle('highcharts-light', scheme === 'light');
    container.classList.toggle('highcharts-dark', scheme === 'dark');
    current = window.Highcharts.chart(container, config.options);
    const svg = current.container.querySelector('svg');
    if (config.format === 'svg') {
      const markup = new XMLSerializer().serializeToString(svg);
      const css = styledModeCss(config);
      return { svg: css ? markup.replace(/^<svg[^>]*>/, (open) => open + css) : markup };
    }
    const raster = !config.responsiveWidth && isRaster(config.format);
    // HTML labels would sit beside the SVG (the sanitiser turns useHTML off, but to be sure), and an SVG
    // image loads no <image> or foreign content: such charts are captured from the page.
    const selfContained = current.container.childElementCount === 1 && !svg.querySelector('image, foreignObject');
    return raster && selfContained ? rasterize(svg, config) : {};
  };

  // ---------------------------------------------------------------- D3

  const CURVES = { linear: 'curveLinear', monotone: 'curveMonotoneX', step: 'curveStep', natural: 'curveNatural' };
  const pad = (lo, hi) => [lo - (hi - lo) * 0.05, hi + (hi - lo) * 0.05];
  const num = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

  // Large numbers as compact text (1.2B, 350M, 12k), with d3's minus sign as its axes write it.
  const UNITS = [
    [1e12, 'T'],
    [1e9, 'B'],
    [1e6, 'M'],
    [1e3, 'k'],
  ];
  const unitOf = (v) => UNITS.find(([u]) => Math.abs(v) >= u) ?? [1, ''];
  const minus = (s) => s.replace(/^-/, '\u2212');
  const trimZeros = (s) => (s.includes('.') ? s.replace(/\.?0+$/, '') : s);
  /** A value label (bars, slices, tooltips): three significant digits and a unit from 1,000 up. */
  const compact = (v) => {
    if (typeof v !== 'number' || !Number.isFinite(v)) return String(v ?? '');
    const rounded = Number(v.toPrecision(3));
    const [u, symbol] = unitOf(rounded);
    return minus(u === 1 ? String(Number(v.toPrecision(6))) : `${Number((rounded / u).toPrecision(3))}${symbol}`);
  };
  /** Tick labels of a linear axis: d3's own below 10,000, else compact with the decimals its step needs. */
  const axisFormat = (d3, scale, count, ticks) => {
    const max = Math.max(0, ...ticks.map(Math.abs));
    if (max < 1e4) return scale.tickFormat(count);
    const step = ticks.length > 1 ? Math.abs(ticks[1] - ticks[0]) : max;
    return (t) => {
      if (t === 0) return '0';
      const [u, symbol] = unitOf(t);
      return minus(trimZeros((t / u).toFixed(d3.precisionFixed(step / u)))) + symbol;
    };
  };

  // Text measured in a canvas (no layout per label), in the computed font of the SVG's text.
  const measurer = document.createElement('canvas').getContext('2d');
  let measuredFont = '';
  const textWidth = (font) => (text) => {
    if (measuredFont !== font) {
      measurer.font = font;
      measurer.fontKerning = 'normal'; // SVG text kerns
      measuredFont = font;
    }
    return measurer.measureText(text).width;
  };
  const graphemeSegmenter = typeof Intl.Segmenter === 'function' ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : null;
  const graphemes = (s) => (graphemeSegmenter ? Array.from(graphemeSegmenter.segment(s), (g) => g.segment) : Array.from(s));
  /** `text` if it fits `room`, else its longest start (whole graphemes) that fits with an ellipsis. */
  const fitText = (text, room, widthOf) => {
    if (widthOf(text) <= room) return text;
    const parts = graphemes(text);
    let lo = 0;
    let hi = parts.length - 1;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (widthOf(`${parts.slice(0, mid).join('')}\u2026`) <= room) lo = mid;
      else hi = mid - 1;
    }
    return `${parts.slice(0, lo).join('').trimEnd()}\u2026`;
  };
  /** The `k` longest strings (by length): enough to find the widest label of thousands without measuring all. */
  const longest = (list, k) => (list.length <= k ? list : [...list].sort((a, b) => b.length - a.length).slice(0, k));

  const renderD3 = (config) => {
    const d3 = window.d3;
    const { width, height, chartType: type } = config;
    const data = config.data;
    const o = config.options;
    const palette = config.colors.length ? config.colors : d3.schemeTableau10;
    const datasets = data.datasets;
    const labels = (data.labels || []).map(String);
    const colorOf = (i) => datasets[i]?.color || palette[i % palette.length];
    const fontSize = o.fontSize || 12;
    const textColor = o.textColor || '#333';
    const isPie = type === 'pie' || type === 'donut';

    const svg = d3
      .create('svg')
      .attr('xmlns', 'http://www.w3.org/2000/svg')
      .attr('width', width)
      .attr('height', height)
      .attr('viewBox', `0 0 ${width} ${height}`)
      .attr('font-family', o.fontFamily || 'Helvetica, Arial, sans-serif')
      .attr('font-size', fontSize)
      .attr('fill', textColor);
    // Attached before drawing: text can only be measured (legend, axis widths) inside the document.
    container.append(svg.node());
    svg.append('rect').attr('class', 'background').attr('width', width).attr('height', height).attr('fill', config.background);

    let top = 12;
    if (o.title) {
      svg
        .append('text')
        .attr('class', 'title')
        .attr('x', width / 2)
        .attr('y', top + fontSize * 1.4)
        .attr('text-anchor', 'middle')
        .attr('font-size', fontSize * 1.4)
        .attr('font-weight', 'bold')
        .text(o.title);
      top += fontSize * 1.4 + 10;
    }

    const legendItems = isPie
      ? labels.map((label, i) => ({ label, color: palette[i % palette.length] }))
      : datasets.map((ds, i) => ({ label: ds.label === undefined ? `Dataset ${i + 1}` : String(ds.label), color: colorOf(i) }));
    const showLegend = o.legend ?? (isPie || datasets.length > 1);
    if (showLegend && legendItems.length) {
      const legend = svg.append('g').attr('class', 'legend');
      let x = 0;
      let row = 0;
      const rowHeight = fontSize + 8;
      const maxWidth = width - 20;
      const rows = [[]];
      for (const item of legendItems) {
        const g = legend.append('g');
        g.append('rect').attr('width', fontSize).attr('height', fontSize).attr('fill', item.color);
        const text = g
          .append('text')
          .attr('x', fontSize + 4)
          .attr('y', fontSize - 2)
          .text(item.label);
        const w = fontSize + 4 + text.node().getComputedTextLength() + 16;
        if (x > 0 && x + w > maxWidth) {
          row += 1;
          x = 0;
          rows.push([]);
        }
        rows[row].push({ g, x, w });
        x += w;
      }
      rows.forEach((items, r) => {
        const rowWidth = items.reduce((s, it) => s + it.w, 0) - 16;
        const offset = (width - rowWidth) / 2;
        for (const it of items) it.g.attr('transform', `translate(${offset + it.x},${top + r * rowHeight})`);
      });
      top += rows.length * rowHeight + 6;
    }

    if (isPie) {
      drawPie(d3, svg, config, { top, labels, palette, fontSize });
    } else {
      drawCartesian(d3, svg, config, { top, labels, colorOf, fontSize, textColor });
    }
    if (config.format === 'svg') return { svg: new XMLSerializer().serializeToString(svg.node()) };
    // PNG/JPEG painted from the laid-out SVG when the painter can; otherwise (and for a responsive width)
    // the page is captured.
    const raster = isRaster(config.format) && !config.responsiveWidth;
    return (raster && painted(svg.node(), config)) || {};
  };

  const drawPie = (d3, svg, config, { top, labels, palette, fontSize }) => {
    const { width, height, options: o } = config;
    const values = config.data.datasets[0].data.map((v) => Math.max(0, num(v) ?? 0));
    const r = Math.max(10, Math.min(width - 20, height - top - 10) / 2);
    const inner = config.chartType === 'donut' ? r * (o.innerRadius ?? 0.5) : 0;
    const arcs = d3.pie().sort(null)(values);
    const arc = d3.arc().innerRadius(inner).outerRadius(r);
    const g = svg
      .append('g')
      .attr('class', 'series')
      .attr('transform', `translate(${width / 2},${top + (height - top) / 2})`);
    g.selectAll('path')
      .data(arcs)
      .join('path')
      .attr('d', arc)
      .attr('fill', (_, i) => palette[i % palette.length])
      .attr('stroke', config.background === 'transparent' ? 'none' : config.background)
      .attr('stroke-width', 1)
      .append('title')
      .text((d, i) => `${labels[i] ?? ''}: ${compact(d.value)}`);
    if (o.showValues) {
      const total = d3.sum(values) || 1;
      const mid = d3
        .arc()
        .innerRadius(inner + (r - inner) * 0.5)
        .outerRadius(inner + (r - inner) * 0.5);
      g.selectAll('text.value')
        .data(arcs.filter((d) => d.value / total > 0.03))
        .join('text')
        .attr('class', 'value')
        .attr('transform', (d) => `translate(${mid.centroid(d)})`)
        .attr('text-anchor', 'middle')
        .attr('dominant-baseline', 'middle')
        .attr('font-size', fontSize)
        .attr('fill', '#fff')
        .text((d) => compact(d.value));
    }
  };

  const drawCartesian = (d3, svg, config, { top, labels, colorOf, fontSize, textColor }) => {
    const { width, height, chartType: type, options: o } = config;
    const datasets = config.data.datasets;
    const margin = { top: top + 4, right: 20, bottom: fontSize + 24 + (o.xAxisLabel ? fontSize + 8 : 0), left: 0 };
    const grid = o.grid ?? true;
    const horizontal = type === 'bar' && o.horizontal === true;
    const stacked = (type === 'bar' || type === 'area') && o.stacked === true;

    // Value domain, including stacked sums and zero for bars/areas so their baseline is visible.
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    let stack = null;
    if (type === 'scatter') {
      for (const ds of datasets) for (const p of ds.data) if (p && num(p.y) !== null) [lo, hi] = [Math.min(lo, p.y), Math.max(hi, p.y)];
    } else if (stacked) {
      const rows = labels.map((_, j) => Object.fromEntries(datasets.map((ds, i) => [i, num(ds.data[j]) ?? 0])));
      stack = d3
        .stack()
        .keys(datasets.map((_, i) => i))
        .offset(d3.stackOffsetDiverging)(rows);
      for (const layer of stack) for (const [a, b] of layer) [lo, hi] = [Math.min(lo, a, b), Math.max(hi, a, b)];
    } else {
      for (const ds of datasets) for (const v of ds.data) if (num(v) !== null) [lo, hi] = [Math.min(lo, v), Math.max(hi, v)];
    }
    if (!Number.isFinite(lo)) [lo, hi] = [0, 1];
    if (type !== 'scatter' && type !== 'line') [lo, hi] = [Math.min(0, lo), Math.max(0, hi)];
    if (lo === hi) [lo, hi] = [lo - 1, hi + 1];
    // Points and smoothed lines at the extremes would be cut in half by the plot edge; bars and areas get
    // the same room at their far ends (not at 0), so no bar ends on the plot's edge.
    if (type === 'scatter' || type === 'line') [lo, hi] = pad(lo, hi);
    else [lo, hi] = [lo < 0 ? lo - (hi - lo) * 0.05 : lo, hi > 0 ? hi + (hi - lo) * 0.05 : hi];

    // Labels are measured (in a canvas) in the font the axes inherit.
    const probeText = svg.append('text').attr('font-size', fontSize);
    const fontOf = getComputedStyle(probeText.node());
    const widthOf = textWidth(`${fontOf.fontStyle} ${fontOf.fontWeight} ${fontOf.fontSize} ${fontOf.fontFamily}`);
    probeText.remove();
    const gap = Math.max(4, fontSize / 2);

    /**
     * A niced linear scale with its ticks and their format: as many ticks as fit the axis (at most 8; labels
     * side by side along x, a line and more apart along y). The domain ends on ticks.
     */
    const linearAxis = (domain, length, alongX) => {
      for (let count = Math.max(2, Math.min(8, Math.floor(length / (fontSize * 2.5)))); ; count--) {
        const scale = d3.scaleLinear().domain(domain).nice(count);
        const ticks = scale.ticks(count);
        const format = axisFormat(d3, scale, count, ticks);
        const widest = Math.max(0, ...ticks.map((t) => widthOf(format(t))));
        if (!alongX || count <= 2 || ticks.length * (widest + gap) <= length) return { scale, ticks, format, widest };
      }
    };

    const n = labels.length;
    // Categories by index, so equal labels stay separate categories; the axes show their labels.
    const categories = d3.range(n);
    const innerH = Math.max(10, height - margin.top - margin.bottom);
    let value = horizontal ? null : linearAxis([lo, hi], innerH, false);
    // Category labels left of horizontal bars get up to a third of the width; longer ones are cut.
    const labelRoom = horizontal ? Math.min(width / 3, Math.max(0, ...longest(labels, 200).map(widthOf))) : 0;
    margin.left = Math.ceil(horizontal ? labelRoom : value.widest) + 16;
    if (o.yAxisLabel) margin.left += fontSize + 8;
    const innerW = Math.max(10, width - margin.left - margin.right);
    if (horizontal) value = linearAxis([lo, hi], innerW, true);
    const valueScale = value.scale;
    const plot = svg.append('g').attr('class', 'plot').attr('transform', `translate(${margin.left},${margin.top})`);

    let x;
    let y;
    let scatterX = null;
    if (type === 'scatter') {
      let xlo = Number.POSITIVE_INFINITY;
      let xhi = Number.NEGATIVE_INFINITY;
      for (const ds of datasets) for (const p of ds.data) if (p && num(p.x) !== null) [xlo, xhi] = [Math.min(xlo, p.x), Math.max(xhi, p.x)];
      if (!Number.isFinite(xlo)) [xlo, xhi] = [0, 1];
      if (xlo === xhi) [xlo, xhi] = [xlo - 1, xhi + 1];
      scatterX = linearAxis(pad(xlo, xhi), innerW, true);
      x = scatterX.scale.range([0, innerW]);
      y = valueScale.range([innerH, 0]);
    } else if (type === 'bar') {
      const band = d3.scaleBand().domain(categories).padding(0.2);
      if (horizontal) {
        y = band.range([0, innerH]);
        x = valueScale.range([0, innerW]);
      } else {
        x = band.range([0, innerW]);
        y = valueScale.range([innerH, 0]);
      }
    } else {
      x = d3.scalePoint().domain(categories).range([0, innerW]).padding(0.5);
      y = valueScale.range([innerH, 0]);
    }
    const valueAxis = horizontal ? x : y;

    /**
     * The category labels shown (index → text): evenly thinned to those that fit side by side (or one line
     * apart on the left axis), each cut with an ellipsis to the room there is. Thousands of categories get
     * a few labels, not a smear of all of them.
     */
    const categoryLabels = () => {
      const shown = new Map();
      if (horizontal) {
        const step = Math.max(1, Math.ceil((fontSize * 1.25) / (innerH / Math.max(1, n))));
        for (let j = 0; j < n; j += step) shown.set(j, fitText(labels[j], labelRoom, widthOf));
        return shown;
      }
      const spacing = innerW / Math.max(1, n);
      const room = Math.min(innerW, Math.max(spacing - gap, fontSize * 10));
      const offset = x.bandwidth ? x.bandwidth() / 2 : 0;
      let widest = Math.min(room, Math.max(0, ...longest(labels, 200).map(widthOf)));
      for (;;) {
        shown.clear();
        const step = Math.max(1, Math.ceil((widest + gap) / spacing));
        let wider = widest;
        for (let j = 0; j < n; j += step) {
          const text = fitText(labels[j], room, widthOf);
          const w = widthOf(text);
          wider = Math.max(wider, w);
          const at = x(j) + offset;
          // A label that would run off the image is left out (its tick stays).
          shown.set(j, at - w / 2 < -margin.left || at + w / 2 > innerW + margin.right ? '' : text);
        }
        // A label wider than the ones measured to choose the step (only the longest strings are): again.
        if (wider <= widest) return shown;
        widest = wider;
      }
    };

    if (grid) {
      const ticks = value.ticks;
      plot
        .append('g')
        .attr('class', 'grid')
        .attr('stroke', '#e0e0e0')
        .selectAll('line')
        .data(ticks)
        .join('line')
        .attr('x1', (t) => (horizontal ? x(t) : 0))
        .attr('x2', (t) => (horizontal ? x(t) : innerW))
        .attr('y1', (t) => (horizontal ? 0 : y(t)))
        .attr('y2', (t) => (horizontal ? innerH : y(t)));
    }

    const series = plot.append('g').attr('class', 'series-group');
    if (type === 'bar') {
      const band = horizontal ? y : x;
      const sub = d3
        .scaleBand()
        .domain(datasets.map((_, i) => i))
        .range([0, band.bandwidth()])
        .padding(0.05);
      datasets.forEach((ds, i) => {
        const g = series.append('g').attr('class', 'series').attr('fill', colorOf(i));
        g.append('title').text(ds.label ?? `Dataset ${i + 1}`);
        categories.forEach((j) => {
          const v = num(ds.data[j]);
          if (v === null && !stacked) return;
          const [a, b] = stacked ? stack[i][j] : [0, v];
          const pos = stacked ? band(j) : band(j) + sub(i);
          const thickness = stacked ? band.bandwidth() : sub.bandwidth();
          const v0 = valueAxis(Math.min(a, b));
          const v1 = valueAxis(Math.max(a, b));
          const rect = g.append('rect');
          if (horizontal)
            rect
              .attr('x', v0)
              .attr('width', Math.max(0, v1 - v0))
              .attr('y', pos)
              .attr('height', thickness);
          else
            rect
              .attr('x', pos)
              .attr('width', thickness)
              .attr('y', v1)
              .attr('height', Math.max(0, v0 - v1));
          if (o.showValues && v !== null) {
            const t = g
              .append('text')
              .attr('fill', textColor)
              .attr('font-size', fontSize * 0.9)
              .text(compact(v));
            // Beyond the bar's far end: right of (or above) a positive bar, left of (or below) a negative one.
            if (horizontal)
              t.attr('x', v < 0 ? v0 - 4 : v1 + 4)
                .attr('y', pos + thickness / 2)
                .attr('dy', '0.32em') // centred as d3's axes centre theirs (the painter can draw it)
                .attr('text-anchor', v < 0 ? 'end' : null);
            else
              t.attr('x', pos + thickness / 2)
                .attr('y', v < 0 ? v0 + fontSize * 0.9 + 2 : v1 - 4)
                .attr('text-anchor', 'middle');
          }
        });
      });
    } else if (type === 'line' || type === 'area') {
      const curve = d3[CURVES[o.curve] || 'curveLinear'];
      datasets.forEach((ds, i) => {
        const color = colorOf(i);
        const g = series.append('g').attr('class', 'series');
        g.append('title').text(ds.label ?? `Dataset ${i + 1}`);
        const points = categories.map((j) => ({ j, v: num(ds.data[j]), layer: stacked ? stack[i][j] : null }));
        const defined = (p) => p.v !== null || stacked;
        if (type === 'area') {
          const area = d3
            .area()
            .defined(defined)
            .curve(curve)
            .x((p) => x(p.j))
            .y0((p) => (stacked ? y(p.layer[0]) : y(Math.max(lo, Math.min(0, hi)))))
            .y1((p) => (stacked ? y(p.layer[1]) : y(p.v)));
          g.append('path')
            .attr('d', area(points))
            .attr('fill', stacked ? color : withAlpha(color, 0.35));
        }
        const line = d3
          .line()
          .defined(defined)
          .curve(curve)
          .x((p) => x(p.j))
          .y((p) => (stacked ? y(p.layer[1]) : y(p.v)));
        g.append('path').attr('d', line(points)).attr('fill', 'none').attr('stroke', color).attr('stroke-width', 2);
        // A line marks its points while they are far enough apart to tell (thousands would be a smear and
        // cost a circle each); a point whose neighbours are both missing draws no segment, so it is always
        // marked, in areas too.
        const lone = (p) => defined(p) && !defined(points[p.j - 1] ?? { v: null }) && !defined(points[p.j + 1] ?? { v: null });
        const marked = type === 'line' && innerW / Math.max(1, n) >= 8 ? (p) => p.v !== null : lone;
        g.selectAll('circle')
          .data(points.filter(marked))
          .join('circle')
          .attr('cx', (p) => x(p.j))
          .attr('cy', (p) => (stacked ? y(p.layer[1]) : y(p.v)))
          .attr('r', 3)
          .attr('fill', color);
      });
    } else {
      datasets.forEach((ds, i) => {
        const g = series
          .append('g')
          .attr('class', 'series')
          .attr('fill', withAlpha(colorOf(i), 0.75))
          .attr('stroke', colorOf(i));
        g.append('title').text(ds.label ?? `Dataset ${i + 1}`);
        g.selectAll('circle')
          .data(ds.data.filter((p) => p && num(p.x) !== null && num(p.y) !== null))
          .join('circle')
          .attr('cx', (p) => x(p.x))
          .attr('cy', (p) => y(p.y))
          .attr('r', (p) => num(p.r) ?? 4);
      });
    }

    const linear = (axis, fit) => axis.tickValues(fit.ticks).tickFormat(fit.format);
    const shown = type === 'scatter' ? null : categoryLabels();
    const category = (axis) => axis.tickValues([...shown.keys()]).tickFormat((j) => shown.get(j));
    const xAxis = plot
      .append('g')
      .attr('class', 'x-axis')
      .attr('transform', `translate(0,${innerH})`)
      .call(horizontal ? linear(d3.axisBottom(x), value) : scatterX ? linear(d3.axisBottom(x), scatterX) : category(d3.axisBottom(x)));
    const yAxis = plot
      .append('g')
      .attr('class', 'y-axis')
      .call(horizontal ? category(d3.axisLeft(y)) : linear(d3.axisLeft(y), value));
    // A cut label keeps its full text in a tooltip (beside the text, which the painter then still draws).
    (horizontal ? yAxis : xAxis).selectAll('.tick').each(function (j) {
      if (shown && shown.get(j) !== labels[j]) d3.select(this).insert('title', ':first-child').text(labels[j]);
    });
    for (const axis of [xAxis, yAxis]) {
      axis.attr('font-size', fontSize).attr('font-family', null);
      axis.selectAll('text').attr('fill', textColor);
      axis.selectAll('line,path').attr('stroke', '#888');
    }
    if (o.xAxisLabel) {
      svg
        .append('text')
        .attr('class', 'x-label')
        .attr('x', margin.left + innerW / 2)
        .attr('y', height - 8)
        .attr('text-anchor', 'middle')
        .text(o.xAxisLabel);
    }
    if (o.yAxisLabel) {
      svg
        .append('text')
        .attr('class', 'y-label')
        .attr('transform', `translate(${fontSize + 4},${margin.top + innerH / 2}) rotate(-90)`)
        .attr('text-anchor', 'middle')
        .text(o.yAxisLabel);
    }
  };

  // ---------------------------------------------------------------- entry points

  const renderers = { chartjs: renderChartJs, highcharts: renderHighcharts, d3: renderD3 };

  const failed = (err) => {
    destroy();
    return { ok: false, message: String(err?.message || err).slice(0, 300) };
  };

  /**
   * The chart is drawn hidden (laid out and measurable, never painted): most jobs answer markup or an
   * image the page exported itself, and painting the live chart into the page's next frame would only
   * compete for the CPU with the answer on its way out. Only a chart that must be captured (screenshot or
   * PDF: no image in the answer) is made visible.
   */
  const answer = (result) => {
    if (!result.image && !result.svg) container.style.visibility = 'visible';
    return { ok: true, ...result };
  };

  /** Answers synchronously, or with a promise when the chart is exported as an image (Highcharts). */
  const render = (config) => {
    destroy();
    try {
      container.style.visibility = 'hidden';
      container.style.width = config.responsiveWidth ? '100%' : `${config.width}px`;
      container.style.height = `${config.height}px`;
      container.style.background = config.background;
      const result = renderers[config.library](config);
      return typeof result.then === 'function' ? result.then(answer, failed) : answer(result);
    } catch (err) {
      return failed(err);
    }
  };

  // Non-writable so nothing a chart library does with user data can replace the entry points.
  Object.defineProperty(window, '__renderChart', { value: render });
  Object.defineProperty(window, '__destroyChart', { value: destroy });
})();
