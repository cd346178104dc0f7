import type { RenderWorkerHandle } from '@render/render-worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Decoded, decodeJpeg, decodePng, near, webpSize } from './helpers/images.ts';
import { startCanary, type TestServer } from './helpers/servers.ts';
import { startGateway, startWorker, type TestGateway, uniquePrefix } from './helpers/stack.ts';

const CONVERT = '/api/code-to-img/convert';
const MONOKAI_BG = [0x27, 0x28, 0x22, 255];
const DARK_PLUS_BG = [0x1e, 0x1e, 0x1e, 255];
/** Default layout: 14 px font on 21 px lines, 20 px padding above and below. */
const autoHeight = (lines: number, lineHeight = 21, padding = 20) => lines * lineHeight + 2 * padding;
const SNIPPET = 'function add(a, b) {\n  return a + b;\n}';

let gateway: TestGateway;
let worker: RenderWorkerHandle;
let canary: TestServer;

beforeAll(async () => {
  const prefix = uniquePrefix('code');
  canary = await startCanary();
  // The canary is allow-listed on purpose: only escaping, not the egress proxy, may keep markup in code from reaching it.
  worker = await startWorker({ QUEUE_PREFIX: prefix, RENDER_QUEUES: 'code', RENDER_EGRESS_ALLOWLIST: `127.0.0.1:${canary.port}` });
  gateway = await startGateway({ QUEUE_PREFIX: prefix });
});

afterAll(async () => {
  await gateway?.close();
  await worker?.close();
  await canary?.close();
});

const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());

async function png(body: Record<string, unknown>): Promise<Decoded> {
  const res = await gateway.post(CONVERT, body);
  if (res.status !== 200) throw new Error(`${res.status}: ${await res.text()}`);
  expect(res.headers.get('content-type')).toBe('image/png');
  return decodePng(await bytes(res));
}

async function failure(body: unknown): Promise<{ status: number; message: string; code: string }> {
  const res = await gateway.post(CONVERT, body);
  const json = await res.json();
  return { status: res.status, message: json.message, code: json.code };
}

/** Pixels in a rectangle that differ from the background (glyphs). */
function inkIn(img: Decoded, x0: number, y0: number, x1: number, y1: number, bg: number[]): number {
  let ink = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (!near(img.pixel(x, y), bg, 30)) ink++;
  return ink;
}

describe('POST /api/code-to-img/convert', () => {
  it('renders PNG at the exact width with an auto height that fits the lines, on the theme background', async () => {
    const three = await png({ code: SNIPPET, language: 'javascript' });
    expect([three.width, three.height]).toEqual([800, autoHeight(3)]);
    expect(near(three.pixel(10, 10), MONOKAI_BG)).toBe(true);
    expect(near(three.pixel(790, autoHeight(3) - 10), MONOKAI_BG)).toBe(true);
    // Outside the rounded corner the image is transparent.
    expect(three.pixel(0, 0)[3]).toBeLessThan(64);
    expect(inkIn(three, 20, 20, 400, 41, MONOKAI_BG)).toBeGreaterThan(20);

    const six = await png({ code: `${SNIPPET}\n// one\n// two\n// three\n\n\n`, language: 'js' });
    expect([six.width, six.height]).toEqual([800, autoHeight(6)]);
  });

  it('uses an explicit height: crops long code and pads short code', async () => {
    const long = Array.from({ length: 50 }, (_, i) => `line(${i});`).join('\n');
    const cropped = await png({ code: long, height: 120, width: 300 });
    expect([cropped.width, cropped.height]).toEqual([300, 120]);
    const padded = await png({ code: 'x = 1', language: 'python', height: 400, width: 300 });
    expect([padded.width, padded.height]).toEqual([300, 400]);
    expect(near(padded.pixel(150, 380), MONOKAI_BG)).toBe(true);
  });

  it('applies scale to both sides', async () => {
    const img = await png({ code: SNIPPET, scale: 2 });
    expect([img.width, img.height]).toEqual([1600, 2 * autoHeight(3)]);
  });

  it('accepts vs2015 (rendered as dark-plus) and colours keywords with the theme', async () => {
    const vs = await png({ code: SNIPPET, theme: 'vs2015' });
    expect(near(vs.pixel(10, 10), DARK_PLUS_BG)).toBe(true);

    // monokai draws `return` in #F92672; a large font leaves solid keyword pixels.
    const big = await png({ code: 'return 1', language: 'typescript', fontSize: 40, width: 400, showLineNumbers: false });
    let keyword = 0;
    for (let y = 20; y < big.height - 20; y++)
      for (let x = 20; x < 200; x++) if (near(big.pixel(x, y), [0xf9, 0x26, 0x72, 255], 20)) keyword++;
    expect(keyword).toBeGreaterThan(30);
  });

  it('renders JPEG (theme colour in the corners) and WebP', async () => {
    const jpg = await gateway.post(CONVERT, { code: SNIPPET, format: 'jpeg', width: 400 });
    expect(jpg.headers.get('content-type')).toBe('image/jpeg');
    const img = decodeJpeg(await bytes(jpg));
    expect([img.width, img.height]).toEqual([400, autoHeight(3)]);
    expect(near(img.pixel(0, 0), MONOKAI_BG, 25)).toBe(true);

    const webp = await gateway.post(CONVERT, { code: SNIPPET, format: 'webp', width: 500, quality: 50 });
    expect(webp.headers.get('content-type')).toBe('image/webp');
    expect(webpSize(await bytes(webp))).toEqual({ width: 500, height: autoHeight(3) });
  });

  it('answers JSON with base64 when outputType is json', async () => {
    const res = await gateway.post(CONVERT, { code: SNIPPET, outputType: 'json', width: 320 });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ success: true, data: { format: 'png', mimeType: 'image/png', width: 320, height: autoHeight(3) } });
    const image = Buffer.from(body.data.image, 'base64');
    expect(body.data.size).toBe(image.length);
    expect(decodePng(image).height).toBe(autoHeight(3));
  });

  it('draws the line-number gutter only when showLineNumbers is on', async () => {
    // The code starts with spaces, so the first characters' cells hold ink only if a line number is there.
    const code = '        indented()';
    const gutterInk = (img: Decoded) => inkIn(img, 20, 20, 30, 41, MONOKAI_BG);
    expect(gutterInk(await png({ code, width: 400 }))).toBeGreaterThan(0);
    expect(gutterInk(await png({ code, width: 400, showLineNumbers: false }))).toBe(0);
  });

  it('wraps a 5,000-character line instead of cutting it', async () => {
    const img = await png({ code: `const s = "${'x'.repeat(5_000)}";` });
    expect(img.width).toBe(800);
    // ~87 characters per row at 800 px: about 58 rows.
    expect(img.height).toBeGreaterThan(autoHeight(50));
    expect(img.height).toBeLessThan(autoHeight(70));
  });

  it('renders 1,000 lines at a small font, and refuses them at 14 px with the limit named', async () => {
    const code = Array.from({ length: 1_000 }, (_, i) => `const v${i} = compute(${i}); // row ${i}`).join('\n');
    const started = Date.now();
    const img = await png({ code, fontSize: 8, width: 600 });
    expect([img.width, img.height]).toEqual([600, autoHeight(1_000, 12)]);
    expect(Date.now() - started).toBeLessThan(15_000);

    const tooTall = await failure({ code });
    expect(tooTall.status).toBe(400);
    expect(tooTall.message).toMatch(/would be at least 21,040 px tall \(1,000 lines at fontSize 14\); auto height is limited to 16,000 px/);
    // Cropping to an explicit height is the documented way out.
    expect((await png({ code, height: 300, width: 300 })).height).toBe(300);
  });

  it('fails with 422 and the limit named when wrapping makes the code taller than the gateway could tell', async () => {
    // Spaces count for nothing in the gateway's lower bound, but these lines wrap to two rows each.
    const code = Array.from({ length: 700 }, () => 'x '.repeat(60)).join('\n');
    const res = await failure({ code, language: 'text' });
    expect(res).toMatchObject({ status: 422, code: 'RENDER_FAILED' });
    expect(res.message).toMatch(
      /^The code image would be [\d,]+ px tall \(700 lines at fontSize 14\); auto height is limited to 16,000 px/,
    );
  });

  it('refuses in the gateway what certainly exceeds the limits (minified one-liner, pixel budget)', async () => {
    const oneLiner = await failure({ code: 'a=1;'.repeat(50_000) });
    expect(oneLiner).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(oneLiner.message).toMatch(/px tall .*limited to 16,000 px/);
    const budget = await failure({ code: 'x', width: 4000, height: 4000, scale: 2 });
    expect(budget.message).toMatch(/must not exceed 16000000 pixels/);
  });

  it('renders markup in code as text: nothing it names is fetched', async () => {
    const code = `<img src="${canary.origin}/x"><link rel=stylesheet href="${canary.origin}/y"><style>#w{background:red}</style>`;
    const img = await png({ code, language: 'html' });
    expect(canary.requests).toEqual([]);
    expect(near(img.pixel(10, 10), MONOKAI_BG)).toBe(true);
    expect(inkIn(img, 20, 20, 400, 41, MONOKAI_BG)).toBeGreaterThan(20);
  });
});

describe('code request validation', () => {
  it.each([
    [{}, 'Please enter some code'],
    [{ code: '' }, 'Please enter some code'],
    [{ code: '  \n\t ' }, 'Please enter some code'],
    [{ code: 42 }, 'Please enter some code'],
    [{ code: 'x', height: 'tall' }, 'height must be "auto" or a whole number between 50 and 4000'],
    [{ code: 'x', height: 10 }, 'height must be between 50 and 4000'],
    [{ code: 'x', fontSize: 100 }, 'fontSize must be between 8 and 72'],
    [{ code: 'x', format: 'gif' }, 'format must be one of: png, jpeg, webp'],
    [{ code: 'x', width: 60, padding: 30 }, 'width 60 leaves no room for code after padding and line numbers'],
  ])('%j → 400 %s', async (body, message) => {
    const res = await failure(body);
    expect(res.status).toBe(400);
    expect(res.message).toContain(message);
  });

  it('names an unknown language or theme and where to find the supported ones', async () => {
    const lang = await failure({ code: 'x', language: 'foo' });
    expect(lang).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(lang.message).toBe(
      'Unknown language "foo". Use a shiki language id such as typescript, python, go, java, bash or text; see GET /api/code-to-img/languages',
    );
    const theme = await failure({ code: 'x', theme: 'nope' });
    expect(theme.status).toBe(400);
    expect(theme.message).toMatch(/^Unknown theme "nope"\. .*monokai.*vs2015.*GET \/api\/code-to-img\/languages$/);
  });

  it('accepts height "auto", aliases and any letter case', async () => {
    const img = await png({ code: 'print(1)', language: 'PY', theme: 'Monokai', height: 'auto', width: 200 });
    expect([img.width, img.height]).toEqual([200, autoHeight(1)]);
  });
});

describe('GET /api/openapi.json', () => {
  it('documents the code call from the schema it validates with', async () => {
    const doc = await (await fetch(`${gateway.url}/api/openapi.json`)).json();
    const schema = doc.paths['/api/code-to-img/convert'].post.requestBody.content['application/json'].schema;
    expect(schema.required).toContain('code');
    expect(schema.required).not.toContain('height');
    expect(schema.properties.fontSize).toMatchObject({ minimum: 8, maximum: 72, default: 14 });
    expect(schema.properties.height.anyOf).toHaveLength(2);
    expect(doc.paths['/api/code-to-img/languages'].get).toBeDefined();
  });
});

describe('GET /api/code-to-img/languages', () => {
  it('lists shiki languages and themes with the theme aliases', async () => {
    const res = await fetch(`${gateway.url}/api/code-to-img/languages`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.success).toBe(true);
    expect(body.data.languages).toEqual(expect.arrayContaining(['typescript', 'python', 'go', 'text']));
    expect(body.data.languages.length).toBeGreaterThan(100);
    expect(body.data.themes).toEqual(expect.arrayContaining(['monokai', 'dark-plus', 'github-light']));
    expect(body.data.themeAliases).toMatchObject({ vs2015: 'dark-plus' });
  });
});
