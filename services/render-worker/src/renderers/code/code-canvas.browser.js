/*
 * Runs INSIDE the code pool's warm page (not in Node): installed once per page by code-host.ts, then called
 * by DevTools evaluation (page scripts stay off). Plain JavaScript on purpose: it reaches the page as text,
 * with no transpiler helpers that would be missing there.
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
(() => {
  const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  // Spaces, a tab, one wide (CJK) character, or a run of anything else.
  const PIECES =
    /( +)|(\t)|([\u1100-\u11ff\u2e80-\u9fff\ua960-\ua97f\uac00-\ud7ff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef\u{20000}-\u{3ffff}])|([^ \t\u1100-\u11ff\u2e80-\u9fff\ua960-\ua97f\uac00-\ud7ff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef\u{20000}-\u{3ffff}]+)/gu;
  const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
  const EPSILON = 0.01;

  const fontOf = (style, job) => `${style.italic ? 'italic ' : ''}${style.bold ? '700' : '400'} ${job.fontSize}px ${job.family}`;

  const draw = async (job) => {
    const { width, fontSize, padding, scale } = job;
    const lineHeight = job.lineHeight;
    const styles = job.styles;
    const canvas = document.createElement('canvas');
    const ctx = canvas.getContext('2d');
    // Turns off ligatures and contextual alternates (`=>` as an arrow), as the DOM version's font-feature-settings
    // do; again after the canvas is sized, which resets its context state.
    const textSettings = () => {
      ctx.textRendering = 'optimizeSpeed';
      ctx.fontKerning = 'none';
    };
    textSettings();

    // Every face the text needs must be loaded before anything is measured, or the fallback's widths would be used.
    const textByStyle = styles.map(() => '');
    textByStyle[0] = '0123456789';
    for (const line of job.lines) for (const [text, s] of line) textByStyle[s] += text;
    const fonts = styles.map((style) => fontOf(style, job));
    await Promise.all(
      fonts.map((font, s) => (textByStyle[s] ? document.fonts.load(font, textByStyle[s]).catch(() => undefined) : undefined)),
    );

    // Widths: printable ASCII is a fixed advance in a monospace face (checked, in case the font fell back).
    const advance = fonts.map((font) => {
      ctx.font = font;
      const one = ctx.measureText('0').width;
      return Math.abs(ctx.measureText('iW').width - 2 * one) < EPSILON ? one : 0;
    });
    let currentFont = '';
    const useFont = (s) => {
      if (fonts[s] !== currentFont) {
        ctx.font = fonts[s];
        currentFont = fonts[s];
      }
    };
    const measure = (text, s) => {
      if (advance[s] && PRINTABLE_ASCII.test(text)) return text.length * advance[s];
      useFont(s);
      return ctx.measureText(text).width;
    };

    const ch = advance[0] || measure('0', 0);
    const first = job.firstLineNumber;
    const digits = String(first + job.lines.length - 1).length;
    const bar = job.window ? job.windowBarHeight : 0;
    const outer = job.outerPadding;
    const gutter = job.showLineNumbers ? (digits + job.gutterGapChars) * ch : 0;
    const codeLeft = padding + gutter;
    const available = width - 2 * padding - gutter;
    const tabStop = job.tabSize * measure(' ', 0);

    // ---------------------------------------------------------------- layout: rows of fragments
    const rows = []; // { line: number | undefined, frags: [{ x, w, text, s }] }
    const maxRows = job.height === null ? Number.POSITIVE_INFINITY : Math.ceil((job.height - bar) / lineHeight);
    for (let n = 0; n < job.lines.length && rows.length < maxRows; n++) {
      let row = { line: n + 1, of: n + 1, frags: [] };
      rows.push(row);
      let x = 0;
      const newRow = () => {
        row = { line: undefined, of: n + 1, frags: [] };
        rows.push(row);
        x = 0;
      };
      const place = (text, s, w) => {
        row.frags.push({ x, w, text, s });
        x += w;
      };
      let word = [];
      let wordWidth = 0;
      const flushWord = () => {
        if (!word.length) return;
        // The word starts a new row if it does not fit after a break opportunity (what precedes it here).
        if (x > 0 && x + wordWidth > available + EPSILON) newRow();
        if (x + wordWidth <= available + EPSILON) {
          for (const f of word) place(f.text, f.s, f.w);
        } else {
          // Longer than a row: broken between any two characters (graphemes), as overflow-wrap: anywhere.
          for (const f of word) {
            let run = '';
            let runWidth = 0;
            for (const { segment } of graphemes.segment(f.text)) {
              const w = measure(segment, f.s);
              if (x + runWidth + w > available + EPSILON && x + runWidth > 0) {
                if (run) place(run, f.s, runWidth);
                newRow();
                run = '';
                runWidth = 0;
              }
              run += segment;
              runWidth += w;
            }
            if (run) place(run, f.s, runWidth);
          }
        }
        word = [];
        wordWidth = 0;
      };
      for (const [text, s] of job.lines[n]) {
        for (const [piece, spaces, tab, wide] of text.matchAll(PIECES)) {
          if (spaces) {
            flushWord();
            place(piece, s, measure(piece, s)); // spaces hang at the end of a row instead of wrapping
          } else if (tab) {
            flushWord();
            let w = tabStop - (x % tabStop);
            if (w < ch / 2) w += tabStop; // CSS: a stop closer than half a character is skipped
            place('', s, w);
          } else if (wide) {
            flushWord();
            word.push({ text: piece, s, w: measure(piece, s) });
            wordWidth = word[0].w;
            flushWord();
          } else {
            const w = measure(piece, s);
            word.push({ text: piece, s, w });
            wordWidth += w;
          }
        }
      }
      flushWord();
    }

    // The window (bar included), then the image: the window with outerPadding on every side.
    const height = job.height ?? rows.length * lineHeight + 2 * padding + bar;
    const fullWidth = width + 2 * outer;
    const fullHeight = height + 2 * outer;
    const imageWidth = Math.round(fullWidth * scale);
    const imageHeight = Math.round(fullHeight * scale);
    if (job.height === null && (imageHeight > job.maxImageHeight || imageWidth * imageHeight > job.maxPixels)) {
      return { height: fullHeight, tooLarge: true };
    }

    // ---------------------------------------------------------------- paint
    canvas.width = imageWidth;
    canvas.height = imageHeight;
    textSettings();
    currentFont = '';
    ctx.scale(imageWidth / fullWidth, imageHeight / fullHeight);
    if (job.background) {
      ctx.fillStyle = job.background.gradient ? linearGradient(ctx, job.background.gradient, fullWidth, fullHeight) : job.background.color;
      ctx.fillRect(0, 0, fullWidth, fullHeight);
    } else if (job.format === 'jpeg') {
      // No alpha: the corners outside the rounded window show the theme background, as in the DOM version.
      ctx.fillStyle = job.bg;
      ctx.fillRect(0, 0, fullWidth, fullHeight);
    }
    ctx.translate(outer, outer);
    const radius = Math.min(job.borderRadius, width / 2, height / 2);
    if (job.shadow) {
      // Shadow sizes are in device pixels (the transform does not apply to them).
      ctx.save();
      ctx.shadowColor = 'rgba(0, 0, 0, 0.5)';
      ctx.shadowBlur = Math.min(40, Math.max(4, outer * 0.6)) * scale;
      ctx.shadowOffsetY = Math.min(16, outer * 0.25) * scale;
      ctx.beginPath();
      ctx.roundRect(0, 0, width, height, radius);
      ctx.fillStyle = job.bg;
      ctx.fill();
      ctx.restore();
    }
    ctx.beginPath();
    ctx.roundRect(0, 0, width, height, radius);
    ctx.fillStyle = job.bg;
    ctx.fill();
    ctx.clip();
    if (job.window) await drawWindowBar(ctx, job, width, bar);
    const highlight = isLight(job.bg) ? 'rgba(0, 0, 0, 0.08)' : 'rgba(255, 255, 255, 0.1)';
    const highlighted = (line) => {
      const shown = line + first - 1;
      for (const [from, to] of job.highlightLines) if (shown >= from && shown <= to) return true;
      return false;
    };

    ctx.font = fonts[0];
    const metrics = ctx.measureText('0');
    const ascent = Math.round(metrics.fontBoundingBoxAscent);
    const descent = Math.round(metrics.fontBoundingBoxDescent);
    const baselineOffset = Math.floor((lineHeight - ascent - descent) / 2) + ascent;
    ctx.textBaseline = 'alphabetic';
    const decoration = Math.max(1, Math.round(fontSize / 14));

    for (let r = 0; r < rows.length; r++) {
      const top = bar + padding + r * lineHeight;
      if (top >= height) break;
      const baseline = top + baselineOffset;
      const row = rows[r];
      if (job.highlightLines.length && highlighted(row.of)) {
        ctx.fillStyle = highlight;
        ctx.fillRect(0, top, width, lineHeight);
      }
      if (row.line !== undefined && job.showLineNumbers) {
        useFont(0);
        ctx.fillStyle = job.lineNumberColor;
        ctx.textAlign = 'right';
        ctx.fillText(String(row.line + first - 1), padding + digits * ch, baseline);
        ctx.textAlign = 'left';
      }
      for (const f of row.frags) {
        const style = styles[f.s];
        const x = codeLeft + f.x;
        if (style.background) {
          ctx.fillStyle = style.background;
          ctx.fillRect(x, top, f.w, lineHeight);
        }
        if (!f.text || f.text.trim() === '') continue;
        useFont(f.s);
        ctx.fillStyle = style.color ?? job.fg;
        ctx.fillText(f.text, x, baseline);
        if (style.underline) ctx.fillRect(x, baseline + decoration, f.w, decoration);
        if (style.strikethrough) ctx.fillRect(x, baseline - Math.round(fontSize * 0.3), f.w, decoration);
      }
    }

    const mime = job.format === 'jpeg' ? 'image/jpeg' : job.format === 'webp' ? 'image/webp' : 'image/png';
    return { image: canvas.toDataURL(mime, job.format === 'png' ? undefined : job.quality / 100), height: fullHeight };
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
})();
