import { RenderWarningLimits, RenderWarnings } from '@render/contracts';
import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { cut, displayUrl, mayNeedFontCheck, RenderDiagnostics, withWarnings } from '../src/renderers/page/diagnostics.ts';
import { parseCharsets } from '../src/renderers/page/font-coverage.ts';
import { svgExternalRefs, svgText } from '../src/renderers/payload-diagnostics.ts';

// The bounds a hostile page meets: whatever it logs or loads, the answer stays small and fits its schema.
describe('render diagnostics caps', () => {
  it('keeps at most maxWarnings, drops duplicates, cuts every string', () => {
    const d = new RenderDiagnostics();
    const long = 'é'.repeat(10_000);
    for (let i = 0; i < 100; i++) d.add('CONSOLE_ERROR', `console.error ${i}: ${long}`);
    d.add('RESOURCE_FAILED', 'again');
    const warnings = d.warnings ?? [];
    expect(warnings).toHaveLength(RenderWarningLimits.maxWarnings);
    for (const w of warnings) expect(Array.from(w.message).length).toBeLessThanOrEqual(RenderWarningLimits.maxMessageLength);
    expect(Value.Check(RenderWarnings, warnings)).toBe(true);

    // Messages alike in their first 1,000 characters are one warning (they show alike anyway).
    const alike = new RenderDiagnostics();
    for (let i = 0; i < 5; i++) alike.add('CONSOLE_ERROR', `${long}${i}`);
    expect(alike.warnings).toHaveLength(1);

    const dup = new RenderDiagnostics();
    dup.add('CONSOLE_ERROR', 'same');
    dup.add('CONSOLE_ERROR', 'same');
    expect(dup.warnings).toHaveLength(1);
    expect(new RenderDiagnostics().warnings).toBeUndefined();
  });

  it('bounds details: URLs without query, fragment or credentials; reasons, fonts and characters cut', () => {
    const d = new RenderDiagnostics();
    const chars = Array.from({ length: 100 }, (_, i) => String.fromCodePoint(0x10fff0 - i)).join('');
    d.add('RESOURCE_REFUSED', 'x', { url: `https://user:pw@example.com/${'a'.repeat(1000)}?token=secret#frag`, reason: 'r'.repeat(999) });
    d.add('MISSING_GLYPH', 'y', { characters: chars, codePoints: Array.from({ length: 100 }, () => 'U+10FFFD') });
    d.add('FONT_FALLBACK', 'z', { font: 'f'.repeat(999), fallback: 'serif' });
    const [refused, glyph, font] = d.warnings ?? [];
    expect(refused?.detail?.url?.length).toBeLessThanOrEqual(RenderWarningLimits.maxUrlLength);
    expect(refused?.detail?.url).toMatch(/^https:\/\/example\.com\/a+…$/);
    expect(refused?.detail?.reason?.length).toBe(RenderWarningLimits.maxDetailLength);
    expect(Array.from(glyph?.detail?.characters ?? '')).toHaveLength(RenderWarningLimits.maxCharacters);
    expect(glyph?.detail?.codePoints).toHaveLength(RenderWarningLimits.maxCharacters);
    expect(font?.detail?.font?.length).toBe(RenderWarningLimits.maxDetailLength);
    expect(Value.Check(RenderWarnings, d.warnings)).toBe(true);
  });

  it('shows data: URLs by their type only and never cuts a surrogate pair in half', () => {
    expect(displayUrl(`data:image/png;base64,${'A'.repeat(5000)}`)).toBe('data:image/png');
    expect(displayUrl('http://h/p?q=1#x')).toBe('http://h/p');
    expect(cut('😀😀😀', 2)).toBe('😀…');
    expect(cut('😀😀', 2)).toBe('😀😀');
    expect(cut('a😀'.repeat(1000), 5)).toBe('a😀a😀…');
    expect(cut('😀'.repeat(10), 10)).toBe('😀'.repeat(10));
  });

  it('merges a renderer’s own warnings with the page’s, within the cap', () => {
    const d = new RenderDiagnostics();
    for (let i = 0; i < 30; i++) d.add('CONSOLE_ERROR', `e${i}`);
    const image = {
      bytes: Buffer.alloc(1),
      format: 'png',
      mimeType: 'image/png',
      width: 1,
      height: 1,
      warnings: [{ code: 'RESOURCE_FAILED' as const, message: 'own' }],
    };
    const merged = withWarnings(image, d).warnings ?? [];
    expect(merged).toHaveLength(RenderWarningLimits.maxWarnings);
    expect(merged[0]?.message).toBe('own');
    expect(withWarnings(image, new RenderDiagnostics())).toBe(image);
  });
});

describe('which HTML renders need the page check', () => {
  it('skips ASCII text whose font lists all start with a generic family', () => {
    expect(mayNeedFontCheck('<style>body{font-family:sans-serif;font-size:40px}h1{font-family: monospace, Menlo}</style><h1>Hi</h1>')).toBe(
      false,
    );
    expect(mayNeedFontCheck('<p style="font-family: system-ui; font-size: 12px">plain</p>')).toBe(false);
    expect(mayNeedFontCheck('<p>no font rule at all</p>')).toBe(false);
  });

  it('leaves to the page whatever could warn: a named family, the shorthand, other text, fonts or scripts', () => {
    for (const markup of [
      '<style>h1{font-family:"Brand Sans",sans-serif}</style><h1>x</h1>',
      '<p style="font-family: Inter">x</p>',
      // Quoted, "serif" names a family, not the generic one.
      '<style>h1{font-family: "serif", x}</style><h1>x</h1>',
      '<style>p{font: 12px Arial}</style><p>x</p>',
      '<p>caf\u00e9</p>',
      '<p>&eacute;</p>',
      '<link rel="stylesheet" href="https://example.com/a.css"><p>x</p>',
      '<style>@font-face{font-family:X;src:url(x.woff2)}</style>',
      '<script>document.body.textContent = "\\u4e2d"</script>',
      '<svg><text>x</text></svg>',
      '<font face="Comic">x</font>',
    ]) {
      expect(mayNeedFontCheck(markup), markup).toBe(true);
    }
  });
});

describe('SVG diagnostics', () => {
  it('finds external references, not fragments, data: URIs or image variables', () => {
    const svg = `<svg><image href="https://a.example/x.png"/><use xlink:href='#local'/><image href="data:image/png;base64,AA"/>
      <image href="render-image:0"/><rect style="fill:url(#g);filter:url('http://b.example/f.svg#f')"/>
      <style>@import "https://c.example/s.css";</style><image href="rel/path.png"/></svg>`;
    expect(svgExternalRefs(svg).sort()).toEqual([
      'http://b.example/f.svg#f',
      'https://a.example/x.png',
      'https://c.example/s.css',
      'rel/path.png',
    ]);
  });

  it('reads the text an SVG draws, entities decoded, style/title/comments left out', () => {
    const svg = `<svg><title>Tïtle</title><style>.a{content:"ß"}</style><!-- ö --><text>A&#x10FFFD;&amp;<tspan>é</tspan></text><text><![CDATA[ü]]></text></svg>`;
    expect(svgText(svg)).toBe('A\u{10FFFD}&éü');
  });
});

describe('font coverage', () => {
  it('parses fontconfig charsets into one bit per code point', () => {
    const bits = parseCharsets('20-7e a0-ff\n4e00 10fffd-10ffff');
    const has = (cp: number) => (bits[cp >> 3]! & (1 << (cp & 7))) !== 0;
    expect([0x20, 0x7e, 0xa0, 0xff, 0x4e00, 0x10fffd, 0x10ffff].every(has)).toBe(true);
    expect([0x1f, 0x7f, 0x100, 0x4e01, 0x10fffc].some(has)).toBe(false);
  });
});
