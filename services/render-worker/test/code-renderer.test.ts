import { describe, expect, it } from 'vitest';
import { fontFaceCss, subsetsFor } from '../src/renderers/code/code-font.ts';
import { highlightCode, highlighterCreations } from '../src/renderers/code/code-highlighter.ts';
import { buildCodePage, escapeHtml } from '../src/renderers/code/code-page.ts';

const PAGE = { width: 800, fontSize: 14, padding: 20, borderRadius: 5, showLineNumbers: true, format: 'png' } as const;

describe('code highlighter', () => {
  it('creates one highlighter per process, however many renders, languages and themes', async () => {
    const jobs = [
      ['const a = 1;', 'typescript', 'monokai'],
      ['def f():\n    return 1', 'python', 'dark-plus'],
      ['package main', 'go', 'github-light'],
      ['plain words', 'text', 'monokai'],
    ] as const;
    // Concurrent first use must not race into a second highlighter.
    await Promise.all(jobs.map(([code, lang, theme]) => highlightCode(code, lang, theme)));
    for (let i = 0; i < 20; i++) {
      const [code, lang, theme] = jobs[i % jobs.length]!;
      await highlightCode(code, lang, theme);
    }
    expect(highlighterCreations()).toBe(1);
  });

  it('colours tokens with the theme and keeps one token row per source line', async () => {
    const out = await highlightCode('if (x) {\n\n  return 1;\n}', 'typescript', 'monokai');
    expect(out.bg.toLowerCase()).toBe('#272822');
    expect(out.lines).toHaveLength(4);
    const keyword = out.lines[0]!.find((t) => t.content === 'if');
    expect(keyword?.color?.toLowerCase()).toBe('#f92672');
  });

  it('keeps line numbering across tokenising slices (long input)', async () => {
    const code = Array.from({ length: 600 }, (_, i) => `let v${i} = "${'x'.repeat(20)}"; // ${i}`).join('\n');
    const out = await highlightCode(code, 'javascript', 'monokai');
    expect(out.lines).toHaveLength(600);
    expect(out.lines[599]!.map((t) => t.content).join('')).toBe(`let v599 = "${'x'.repeat(20)}"; // 599`);
  });

  it('carries grammar state across slices: a comment opened in one slice stays a comment in the next', async () => {
    const code = ['/*', ...Array.from({ length: 400 }, () => 'still inside the comment'), '*/', 'const after = 1;'].join('\n');
    const out = await highlightCode(code, 'typescript', 'monokai');
    const comment = out.lines[1]![0]!.color;
    expect(comment?.toLowerCase()).toBe('#88846f');
    expect(out.lines[350]![0]!.color).toBe(comment);
    expect(out.lines[402]!.find((t) => t.content.includes('const'))?.color).not.toBe(comment);
  });

  it('draws the rest unstyled once the time budget is spent', async () => {
    const code = Array.from({ length: 3_000 }, (_, i) => `const s${i} = "${'y'.repeat(60)}";`).join('\n');
    const out = await highlightCode(code, 'typescript', 'monokai', 1);
    expect(out.lines).toHaveLength(3_000);
    expect(out.lines[2_999]).toEqual([{ content: `const s2999 = "${'y'.repeat(60)}";`, offset: 0 }]);
  });

  it('refuses ids the gateway would not have produced', async () => {
    await expect(highlightCode('x', 'nope', 'monokai')).rejects.toThrow(/Unknown language/);
    await expect(highlightCode('x', 'typescript', 'vs2015')).rejects.toThrow(/Unknown theme/);
  });
});

describe('code page', () => {
  it('escapes markup in code, so it is text and never an element', async () => {
    const code = '<img src=http://127.0.0.1:9/x onerror=alert(1)> </div><script>x</script> & "q"';
    const html = buildCodePage(await highlightCode(code, 'html', 'monokai'), PAGE);
    const body = html.slice(html.indexOf('<body>'));
    expect(body).not.toMatch(/<(img|script)\b/i);
    // With the page's own tags removed, what is left is the code, still escaped.
    expect(body.replace(/<[^>]+>/g, '')).toBe(`1${escapeHtml(code)}`);
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it('embeds only the font subsets and styles the code needs', async () => {
    expect([...subsetsFor('plain ascii')]).toEqual(['latin']);
    expect(subsetsFor('Привет, αβγ')).toEqual(new Set(['latin', 'cyrillic', 'greek']));
    const regular = fontFaceCss(new Set(['latin']), { italic: false, bold: false });
    expect(regular.match(/@font-face/g)).toHaveLength(1);
    expect(regular).toContain('data:font/woff2;base64,');
    expect(fontFaceCss(new Set(['latin']), { italic: true, bold: true }).match(/@font-face/g)).toHaveLength(4);
  });

  it('numbers lines in a gutter only when asked, and sizes the window for an explicit height', async () => {
    const highlighted = await highlightCode('a\nb\nc', 'text', 'monokai');
    const numbered = buildCodePage(highlighted, PAGE);
    expect(numbered.match(/class="n"/g)).toHaveLength(3);
    expect(numbered).toContain('user-select:none');
    const bare = buildCodePage(highlighted, { ...PAGE, showLineNumbers: false, height: 300 });
    expect(bare).not.toContain('class="n"');
    expect(bare).toContain('height:300px');
  });
});
