import { ProtocolError, TimeoutError } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import type { PageSlot } from '../src/browser/page-pool-concurrency.ts';
import { parseQueues } from '../src/render.worker.ts';
import { isSelfContained, needsScript, withDeadline } from '../src/renderers/page/page-ops.ts';
import { classifyRenderFailure, failureReason, isInfrastructureError, RenderError } from '../src/renderers/page/render-error.ts';
import { normalizeSvg } from '../src/renderers/svg/svg.renderer.ts';

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
    ['<meta http-equiv="Content-Security-Policy" content="img-src *">', false],
    ['<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"></head><p>x</p>', true],
    ['<script>1</script>', false],
    ['<div onclick="x()">', false],
  ])('%s → %s', (html, expected) => {
    expect(isSelfContained(html)).toBe(expected);
  });
});

describe('classifyRenderFailure (what a failed render answers)', () => {
  const STOPPED = 'Failed to generate image: the renderer stopped unexpectedly';

  it.each([
    new ProtocolError('Protocol error (Page.captureScreenshot): Unable to capture screenshot'),
    new ProtocolError('Protocol error (Page.setDocumentContent): Target closed'),
    new ProtocolError(
      "Runtime.callFunctionOn timed out. Increase the 'protocolTimeout' setting in launch/connect calls for a higher timeout if needed.",
    ),
    new Error('Protocol error (Emulation.setDeviceMetricsOverride): Session closed. Most likely the page has been closed.'),
    new Error('Execution context was destroyed, most likely because of a navigation.'),
    new Error('Cannot find context with specified id'),
    new Error('Navigating frame was detached'),
    new Error("Attempted to use detached Frame 'FDD6A0F2A2314104106519E236B1B543'."),
    new Error('Navigation interrupted by another one'),
    new Error('Connection closed.'),
    new Error('Something else entirely'),
  ])('the machinery failing is retried, never a content failure: %s', (err) => {
    const failure = classifyRenderFailure(err, 1_000);
    expect(failure).toMatchObject({ retryable: true, message: STOPPED });
    expect(failureReason(failure)).toBe(err.message);
  });

  it('a puppeteer wait that ran out is the content being slow: answered at once', () => {
    const failure = classifyRenderFailure(new TimeoutError('Navigation timeout of 500 ms exceeded'), 500);
    expect(failure.retryable).toBe(false);
    expect(failure.message).toMatch(/^Rendering timed out after 500 ms/);
  });

  it('keeps a RenderError as it is, and a URL Chromium refuses is not the machinery', () => {
    const own = new RenderError('Failed to generate image: the page crashed (it may have used too much memory)', false);
    expect(classifyRenderFailure(own, 1_000)).toBe(own);
    expect(isInfrastructureError(new ProtocolError('Protocol error (Page.navigate): Cannot navigate to invalid URL'))).toBe(false);
    expect(isInfrastructureError(new Error('net::ERR_NAME_NOT_RESOLVED at https://example.invalid'))).toBe(false);
  });

  it('withDeadline retires the page and answers a protocol failure as retryable', async () => {
    const slot = { page: null, broken: false } as unknown as PageSlot;
    const failure = await withDeadline(slot, 1_000, async () => {
      throw new ProtocolError('Protocol error (Page.captureScreenshot): Target closed');
    }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(RenderError);
    expect(failure).toMatchObject({ retryable: true, message: STOPPED });
    expect(slot.broken).toBe(true);
  });

  it('withDeadline answers its own deadline as a content failure', async () => {
    const slot = { page: null, broken: false } as unknown as PageSlot;
    const failure = await withDeadline(slot, 20, () => new Promise(() => undefined)).catch((err: unknown) => err);
    expect(failure).toMatchObject({ retryable: false, message: expect.stringMatching(/^Rendering timed out after 20 ms/) });
  });
});
