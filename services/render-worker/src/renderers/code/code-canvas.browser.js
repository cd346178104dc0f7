/*
 * Runs INSIDE the code pool's warm page (not in Node): installed once per page by code-host.ts, then called
 * by DevTools evaluation (page scripts stay off). Plain JavaScript on purpose: it reaches the page as text,
 * with no transpiler helpers that would be missing there. One block rather than a function wraps it: its
 * `const`s stay in the block, off the page's global scope, and no wrapper function grows with the helpers.
 *
 * window.__drawCode(job) lays highlighted code out and paints it into a canvas, then encodes the canvas:
 * one DevTools call per job, no DOM to style or lay out and no compositor frame to capture, which makes a
 * code image about twice as fast as filling the page and taking a screenshot. It answers
 * { image: dataURL, height } or, when auto height would exceed the limits it is given, { height, tooLarge }.
 *
 * The layout is the DOM version's (code-page.ts) in canvas terms: the bundled monospace font without
 * ligatures, line-height rows, a right-aligned line-number gutter `digits + gap` characters wide, lines
 * wrapped as `white-space: pre-wrap; overflow-wrap: anywhere` would (at spaces and around CJK characters,
 * and anywhere inside a word that is longer than a row), tabs to the next stop, and the window a rounded
 * rectangle in the theme background that clips its content. Right-to-left text needs the browser's bidi
 * layout, so the renderer sends such code to the DOM version instead.
 */
{
  const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  // Spaces, a tab, one wide (CJK) character, or a run of anything else.
  const PIECES =
    /( +)|(\t)|([\u1100-\u11ff\u2e80-\u9fff\ua960-\ua97f\uac00-\ud7ff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef\u{20000}-\u{3ffff}])|([^ \t\u1100-\u11ff\u2e80-\u9fff\ua960-\ua97f\uac00-\ud7ff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef\u{20000}-\u{3ffff}]+)/gu;
  const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
  const EPSILON = 0.01;

  const fontOf = (style, job) => `${style.italic ? 'italic ' : ''}${style.bold ? '700' : '400'} ${job.fontSize}px ${job.family}`;

  // Turns off ligatures and contextual alternates (`=>` as an arrow), as the DOM version's font-feature-settings
  // do; again after the canvas is sized, which resets its context state.
  const textSettings = (ctx) => {
    ctx.textRendering = 'optimizeSpeed';
    ctx.fontKerning = 'none';
  };

  const draw = async (job) => {
    const canvas = document.createElement('canvas');
    const ctx = canvas.getContext('2d');
    textSettings(ctx);
    const fonts = job.styles.map((style) => fontOf(style, job));
    await loadFonts(job, fonts);
    const type = typesetter(ctx, fonts);
    const grid = gridOf(job, type);
    const rows = layoutRows(job, grid, type);
    const frame = frameOf(job, rows, grid.bar);
    if (job.height === null && (frame.imageHeight > job.maxImageHeight || frame.imageWidth * frame.imageHeight > job.maxPixels)) {
      return { height: frame.fullHeight, tooLarge: true };
    }

    canvas.width = frame.imageWidth;
    canvas.height = frame.imageHeight;
    textSettings(ctx);
    type.forget();
    ctx.scale(frame.imageWidth / frame.fullWidth, frame.imageHeight / frame.fullHeight);
    paintSurround(ctx, job, frame);
    await paintWindow(ctx, job, frame.height, grid.bar);
    paintRows(ctx, job, { rows, grid, type, height: frame.height });

    const mime = job.format === 'jpeg' ? 'image/jpeg' : job.format === 'webp' ? 'image/webp' : 'image/png';
    return { image: canvas.toDataURL(mime, job.format === 'png' ? undefined : job.quality / 100), height: frame.fullHeight };
  };

  /** Every face the text needs must be loaded before anything is measured, or the fallback's widths would be used. */
  const loadFonts = (job, fonts) => {
    const textByStyle = job.styles.map(() => '');
    textByStyle[0] = '0123456789';
    for (const line of job.lines) for (const [text, s] of line) textByStyle[s] += text;
    return Promise.all(
      fonts.map((font, s) => (textByStyle[s] ? document.fonts.load(font, textByStyle[s]).catch(() => undefined) : undefined)),
    );
  };

  /** Sets the context's font by style index (only when it changes) and measures text in a style. */
  const typesetter = (ctx, fonts) => {
    // Widths: printable ASCII is a fixed advance in a monospace face (checked, in case the font fell back).
    const advance = fonts.map((font) => {
      ctx.font = font;
      const one = ctx.measureText('0').width;
      return Math.abs(ctx.measureText('iW').width - 2 * one) < EPSILON ? one : 0;
    });
    let currentFont = '';
    const use = (s) => {
      if (fonts[s] !== currentFont) {
        ctx.font = fonts[s];
        currentFont = fonts[s];
      }
    };
    const measure = (text, s) => {
      if (advance[s] && PRINTABLE_ASCII.test(text)) return text.length * advance[s];
      use(s);
      return ctx.measureText(text).width;
    };
    // Sizing the canvas resets its font, so the next use sets it again.
    const forget = () => {
      currentFont = '';
    };
    return { fonts, advance, use, measure, forget };
  };

  /** The columns, in CSS px: the line-number gutter, where code starts and the room it has, the tab stop. */
  const gridOf = (job, type) => {
    const ch = type.advance[0] || type.measure('0', 0);
    const digits = String(job.firstLineNumber + job.lines.length - 1).length;
    const gutter = job.showLineNumbers ? (digits + job.gutterGapChars) * ch : 0;
    return {
      ch,
      digits,
      bar: job.window ? job.windowBarHeight : 0,
      codeLeft: job.padding + gutter,
      available: job.width - 2 * job.padding - gutter,
      tabStop: job.tabSize * type.measure(' ', 0),
    };
  };

  // ---------------------------------------------------------------- layout: rows of fragments

  /** Rows { line: number | undefined (a wrapped row), of: source line, frags: [{ x, w, text, s }] }, as many as the height shows. */
  const layoutRows = (job, grid, type) => {
    const rows = [];
    const maxRows = job.height === null ? Number.POSITIVE_INFINITY : Math.ceil((job.height - grid.bar) / job.lineHeight);
    for (let n = 0; n < job.lines.length && rows.length < maxRows; n++) layoutLine(job.lines[n], n + 1, { rows, grid, type });
    return rows;
  };

  /** One source line's tokens into rows. `state` holds the row being filled, its x and the word not yet placed. */
  const layoutLine = (tokens, of, shared) => {
    const state = { ...shared, of, row: undefined, x: 0, word: [], wordWidth: 0 };
    startRow(state, of);
    for (const [text, s] of tokens) {
      for (const [piece, spaces, tab, wide] of text.matchAll(PIECES)) {
        if (spaces) {
          flushWord(state);
          place(state, piece, s, state.type.measure(piece, s)); // spaces hang at the end of a row instead of wrapping
        } else if (tab) {
          flushWord(state);
          placeTab(state, s);
        } else if (wide) {
          // A wide character is a word of its own: a line may break on either side of it.
          flushWord(state);
          addToWord(state, piece, s);
          flushWord(state);
        } else {
          addToWord(state, piece, s);
        }
      }
    }
    flushWord(state);
  };

  const startRow = (state, line) => {
    state.row = { line, of: state.of, frags: [] };
    state.rows.push(state.row);
    state.x = 0;
  };

  const place = (state, text, s, w) => {
    state.row.frags.push({ x: state.x, w, text, s });
    state.x += w;
  };

  const addToWord = (state, text, s) => {
    const w = state.type.measure(text, s);
    state.word.push({ text, s, w });
    state.wordWidth += w;
  };

  const placeTab = (state, s) => {
    const { ch, tabStop } = state.grid;
    let w = tabStop - (state.x % tabStop);
    if (w < ch / 2) w += tabStop; // CSS: a stop closer than half a character is skipped
    place(state, '', s, w);
  };

  const flushWord = (state) => {
    const { word, wordWidth, grid } = state;
    if (!word.length) return;
    // The word starts a new row if it does not fit after a break opportunity (what precedes it here).
    if (state.x > 0 && state.x + wordWidth > grid.available + EPSILON) startRow(state, undefined);
    if (state.x + wordWidth <= grid.available + EPSILON) {
      for (const f of word) place(state, f.text, f.s, f.w);
    } else {
      for (const f of word) breakAnywhere(state, f);
    }
    state.word = [];
    state.wordWidth = 0;
  };

  /** A word longer than a row: broken between any two characters (graphemes), as overflow-wrap: anywhere. */
  const breakAnywhere = (state, f) => {
    const { grid, type } = state;
    let run = '';
    let runWidth = 0;
    for (const { segment } of graphemes.segment(f.text)) {
      const w = type.measure(segment, f.s);
      if (state.x + runWidth + w > grid.available + EPSILON && state.x + runWidth > 0) {
        if (run) place(state, run, f.s, runWidth);
        startRow(state, undefined);
        run = '';
        runWidth = 0;
      }
      run += segment;
      runWidth += w;
    }
    if (run) place(state, run, f.s, runWidth);
  };

  /** The window (bar included), then the image: the window with outerPadding on every side. */
  const frameOf = (job, rows, bar) => {
    const height = job.height ?? rows.length * job.lineHeight + 2 * job.padding + bar;
    const fullWidth = job.width + 2 * job.outerPadding;
    const fullHeight = height + 2 * job.outerPadding;
    return {
      height,
      fullWidth,
      fullHeight,
      imageWidth: Math.round(fullWidth * job.scale),
      imageHeight: Math.round(fullHeight * job.scale),
    };
  };

  // ---------------------------------------------------------------- paint

  /** What shows around the window (and in its corners). */
  const paintSurround = (ctx, job, { fullWidth, fullHeight }) => {
    if (job.background) {
      ctx.fillStyle = job.background.gradient ? linearGradient(ctx, job.background.gradient, fullWidth, fullHeight) : job.background.color;
      ctx.fillRect(0, 0, fullWidth, fullHeight);
    } else if (job.format === 'jpeg') {
      // No alpha: the corners outside the rounded window show the theme background, as in the DOM version.
      ctx.fillStyle = job.bg;
      ctx.fillRect(0, 0, fullWidth, fullHeight);
    }
  };

  /** The window's rounded rectangle (and its shadow), which then clips what is drawn; the bar when there is one. */
  const paintWindow = async (ctx, job, height, bar) => {
    const { width } = job;
    ctx.translate(job.outerPadding, job.outerPadding);
    const radius = Math.min(job.borderRadius, width / 2, height / 2);
    if (job.shadow) paintShadow(ctx, job, height, radius);
    ctx.beginPath();
    ctx.roundRect(0, 0, width, height, radius);
    ctx.fillStyle = job.bg;
    ctx.fill();
    ctx.clip();
    if (job.window) await drawWindowBar(ctx, job, width, bar);
  };

  const paintShadow = (ctx, job, height, radius) => {
    const outer = job.outerPadding;
    // Shadow sizes are in device pixels (the transform does not apply to them).
    ctx.save();
    ctx.shadowColor = 'rgba(0, 0, 0, 0.5)';
    ctx.shadowBlur = Math.min(40, Math.max(4, outer * 0.6)) * job.scale;
    ctx.shadowOffsetY = Math.min(16, outer * 0.25) * job.scale;
    ctx.beginPath();
    ctx.roundRect(0, 0, job.width, height, radius);
    ctx.fillStyle = job.bg;
    ctx.fill();
    ctx.restore();
  };

  /** The rows that fit in the window's height: line highlight, line number, then each fragment. */
  const paintRows = (ctx, job, { rows, grid, type, height }) => {
    const { lineHeight } = job;
    const highlight = isLight(job.bg) ? 'rgba(0, 0, 0, 0.08)' : 'rgba(255, 255, 255, 0.1)';
    const baselineOffset = baselineOffsetOf(ctx, type.fonts[0], lineHeight);
    ctx.textBaseline = 'alphabetic';
    const decoration = Math.max(1, Math.round(job.fontSize / 14));
    for (let r = 0; r < rows.length; r++) {
      const top = grid.bar + job.padding + r * lineHeight;
      if (top >= height) break;
      const baseline = top + baselineOffset;
      const row = rows[r];
      if (job.highlightLines.length && highlighted(job, row.of)) {
        ctx.fillStyle = highlight;
        ctx.fillRect(0, top, job.width, lineHeight);
      }
      if (row.line !== undefined && job.showLineNumbers) paintLineNumber(ctx, job, { grid, type, line: row.line, baseline });
      const at = { left: grid.codeLeft, top, baseline, decoration };
      for (const f of row.frags) paintFragment(ctx, job, type, f, at);
    }
  };

  /** Where the baseline sits in a row: the font's box centred in the line height, as CSS lays a line box out. */
  const baselineOffsetOf = (ctx, font, lineHeight) => {
    ctx.font = font;
    const metrics = ctx.measureText('0');
    const ascent = Math.round(metrics.fontBoundingBoxAscent);
    const descent = Math.round(metrics.fontBoundingBoxDescent);
    return Math.floor((lineHeight - ascent - descent) / 2) + ascent;
  };

  /** Whether a source line (1-based) is in one of the ranges, which count as the gutter does. */
  const highlighted = (job, line) => {
    const shown = line + job.firstLineNumber - 1;
    for (const [from, to] of job.highlightLines) if (shown >= from && shown <= to) return true;
    return false;
  };

  const paintLineNumber = (ctx, job, { grid, type, line, baseline }) => {
    type.use(0);
    ctx.fillStyle = job.lineNumberColor;
    ctx.textAlign = 'right';
    ctx.fillText(String(line + job.firstLineNumber - 1), job.padding + grid.digits * grid.ch, baseline);
    ctx.textAlign = 'left';
  };

  const paintFragment = (ctx, job, type, f, { left, top, baseline, decoration }) => {
    const style = job.styles[f.s];
    const x = left + f.x;
    if (style.background) {
      ctx.fillStyle = style.background;
      ctx.fillRect(x, top, f.w, job.lineHeight);
    }
    if (!f.text || f.text.trim() === '') return;
    type.use(f.s);
    ctx.fillStyle = style.color ?? job.fg;
    ctx.fillText(f.text, x, baseline);
    if (style.underline) ctx.fillRect(x, baseline + decoration, f.w, decoration);
    if (style.strikethrough) ctx.fillRect(x, baseline - Math.round(job.fontSize * 0.3), f.w, decoration);
  };

  /** CSS linear-gradient(angle) over a w × h box: 0° runs upwards, 90° to the right, corners reach the end colours. */
  const linearGradient = (ctx, { from, to, angle }, w, h) => {
    const a = (angle * Math.PI) / 180;
    const dx = Math.sin(a);
    const dy = -Math.cos(a);
    const half = (Math.abs(w * dx) + Math.abs(h * dy)) / 2;
    const g = ctx.createLinearGradient(w / 2 - dx * half, h / 2 - dy * half, w / 2 + dx * half, h / 2 + dy * half);
    g.addColorStop(0, from);
    g.addColorStop(1, to);
    return g;
  };

  /** Whether a theme background (#rgb, #rgba, #rrggbb or #rrggbbaa, as themes write it) is light. */
  const isLight = (hex) => {
    const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])[0-9a-f]?$/i.exec(hex);
    const m = short ?? /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})/i.exec(hex);
    if (!m) return false;
    const [r, g, b] = [m[1], m[2], m[3]].map((v) => Number.parseInt(short ? v + v : v, 16));
    return 0.299 * r + 0.587 * g + 0.114 * b > 140;
  };

  const MAC_DOTS = ['#ff5f56', '#ffbd2e', '#27c93f'];

  /** The window bar: traffic lights (mac) or minimise/maximise/close (windows), and the title centred. */
  const drawWindowBar = async (ctx, job, width, bar) => {
    const mid = bar / 2;
    if (job.window.style === 'mac') {
      MAC_DOTS.forEach((color, i) => {
        ctx.beginPath();
        ctx.arc(20 + i * 20, mid, 6, 0, 2 * Math.PI);
        ctx.fillStyle = color;
        ctx.fill();
      });
    } else {
      ctx.save();
      ctx.strokeStyle = job.fg;
      ctx.globalAlpha = 0.75;
      ctx.lineWidth = 1.25;
      const close = width - 22;
      const max = close - 34;
      const min = max - 34;
      ctx.beginPath();
      ctx.moveTo(min - 5, mid + 0.5);
      ctx.lineTo(min + 5, mid + 0.5);
      ctx.rect(max - 5, mid - 5, 10, 10);
      ctx.moveTo(close - 5, mid - 5);
      ctx.lineTo(close + 5, mid + 5);
      ctx.moveTo(close + 5, mid - 5);
      ctx.lineTo(close - 5, mid + 5);
      ctx.stroke();
      ctx.restore();
    }
    const title = job.window.title;
    if (!title) return;
    const font = `400 13px ${job.family}`;
    await document.fonts.load(font, title).catch(() => undefined);
    ctx.save();
    ctx.font = font;
    ctx.fillStyle = job.fg;
    ctx.globalAlpha = 0.7;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    // Clear of the dots or controls on either side; cut with an ellipsis when longer.
    const room = width - 2 * 110;
    let text = title;
    if (ctx.measureText(text).width > room) {
      while (text && ctx.measureText(`${text}…`).width > room) text = text.slice(0, -1);
      text = `${text}…`;
    }
    if (room > 0) ctx.fillText(text, width / 2, mid);
    ctx.restore();
  };

  // Non-writable, like the chart page's entry points.
  Object.defineProperty(window, '__drawCode', { value: draw });
}
