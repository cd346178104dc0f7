import { describe, expect, it } from 'vitest';
import { parseQueues } from '../src/render.worker.ts';
import { isSelfContained, needsScript } from '../src/renderers/page-ops.ts';
import { normalizeSvg } from '../src/renderers/svg.renderer.ts';

describe('needsScript', () => {
  it.each([
    ['<script>1</script>', true],
    ['<div onclick="x()">', true],
    ['<a href="javascript:alert(1)">', true],
    ['<iframe src="https://example.com">', true],
    ['<meta http-equiv="refresh" content="0;url=https://example.com">', true],
    ['<h1 style="color:red">Hello</h1>', false],
    ['<p>the word onion = vegetable</p>', false],
  ])('%s → %s', (html, expected) => {
    expect(needsScript(html)).toBe(expected);
  });
});

describe('normalizeSvg', () => {
  it('adds the SVG and xlink namespaces when missing', () => {
    const out = normalizeSvg('<svg><use xlink:href="#a"/></svg>');
    expect(out).toContain('xmlns="http://www.w3.org/2000/svg"');
    expect(out).toContain('xmlns:xlink="http://www.w3.org/1999/xlink"');
  });

  it('keeps existing namespaces and content untouched', () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect/></svg>';
    expect(normalizeSvg(svg)).toBe(svg);
  });

  it('resizes through width/height and derives a viewBox so the drawing scales', () => {
    const out = normalizeSvg('<svg width=\'10\' height="20"><rect/></svg>', { width: 100, height: 200 });
    expect(out).toMatch(/^<svg width="100" height="200" viewBox="0 0 10 20" xmlns="http:\/\/www\.w3\.org\/2000\/svg">/);
    expect(out.match(/width=/g)).toHaveLength(1);
  });

  it('does not touch child elements’ width/height', () => {
    const out = normalizeSvg('<svg viewBox="0 0 5 5"><rect width="5" height="5"/></svg>', { width: 50, height: 50 });
    expect(out).toContain('<rect width="5" height="5"/>');
  });
});

describe('parseQueues', () => {
  it('accepts known queues', () => {
    expect(parseQueues('html, svg')).toEqual(['html', 'svg']);
  });
  it('names unknown queues', () => {
    expect(() => parseQueues('html,pdf')).toThrow(/unknown queues: pdf/);
  });
  it('refuses an empty list', () => {
    expect(() => parseQueues(' , ')).toThrow(/empty/);
  });
});

describe('isSelfContained (the fast path needs nothing fetched and nothing run)', () => {
  it.each([
    ['<h1 style="color:red">Hi</h1><div style="width:10px;height:10px;background:#f00"></div>', true],
    ['<style>body{font-family:sans-serif}</style><p>text</p>', true],
    ['<img src="https://example.com/a.png">', false],
    ['<link rel="stylesheet" href="a.css">', false],
    ['<div style="background:url(a.png)"></div>', false],
    ['<style>@import "x.css";</style>', false],
    ['<img srcset="a.png 1x">', false],
    ['<meta http-equiv="refresh" content="1">', false],
    ['<script>1</script>', false],
    ['<div onclick="x()">', false],
  ])('%s → %s', (html, expected) => {
    expect(isSelfContained(html)).toBe(expected);
  });
});
