import type { RenderWorkerHandle } from '@render/render-worker';
import { type Decoded, decodeJpeg, decodePng, near, webpSize } from '@render/test-stack/images';
import { closeInOrder } from '@render/test-stack/teardown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCanary, type TestServer } from './helpers/servers.ts';
import { startGateway, startWorker, type TestGateway, uniquePrefix } from './helpers/stack.ts';
import { missingTextCases } from './helpers/validation-cases.ts';

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
  await closeInOrder(gateway, worker, canary);
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
    ...missingTextCases('code', 'Please enter some code', '  \n\t '),
    [{ code: 'x', height: 'tall' }, 'height must be "auto" or a whole number between 50 and 4000'],
    [{ code: 'x', height: 10 }, 'height must be between 50 and 4000'],
    [{ code: 'x', fontSize: 100 }, 'fontSize must be between 8 and 72'],
    [{ code: 'x', format: 'gif' }, 'format must be one of: png, jpeg, webp, avif'],
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

describe('POST /api/code-to-img/convert: frame, highlighted lines, first line number', () => {
  const OUTER = 32;
  const BAR = 36;
  /** Rightmost column holding ink in the first code row (gutter + one-character line). */
  const lastInkX = (img: Decoded, top: number) => {
    for (let x = img.width - 1; x >= 0; x--) for (let y = top; y < top + 21; y++) if (!near(img.pixel(x, y), MONOKAI_BG, 30)) return x;
    return -1;
  };

  it('grows the image by outerPadding and the window bar, draws the traffic lights, keeps the surround transparent', async () => {
    const plain = await png({ code: SNIPPET, width: 400 });
    const framed = await png({ code: SNIPPET, width: 400, outerPadding: OUTER, window: { style: 'mac', title: 'add.js' } });
    expect([framed.width, framed.height]).toEqual([plain.width + 2 * OUTER, plain.height + BAR + 2 * OUTER]);
    // The first dot's centre (20, 18 in the window) is red; the surround has no background: alpha 0.
    expect(near(framed.pixel(OUTER + 20, OUTER + 18), [0xff, 0x5f, 0x56, 255], 20)).toBe(true);
    expect(near(framed.pixel(OUTER + 40, OUTER + 18), [0xff, 0xbd, 0x2e, 255], 20)).toBe(true);
    expect(framed.pixel(0, 0)[3]).toBe(0);
    expect(framed.pixel(framed.width - 1, framed.height - 1)[3]).toBe(0);
    expect(framed.pixel(OUTER / 2, Math.floor(framed.height / 2))[3]).toBe(0);
    // The code sits under the bar, as in the plain image shifted by the frame.
    expect(inkIn(framed, OUTER + 20, OUTER + BAR + 20, OUTER + 400, OUTER + BAR + 41, MONOKAI_BG)).toBeGreaterThan(20);

    const windows = await png({ code: SNIPPET, width: 400, window: { style: 'windows' } });
    expect(windows.height).toBe(plain.height + BAR);
    expect(inkIn(windows, 400 - 30, 10, 400 - 14, 26, MONOKAI_BG)).toBeGreaterThan(5); // the close cross
    const none = await png({ code: SNIPPET, width: 400, window: { style: 'none' } });
    expect(none.height).toBe(plain.height);
  });

  it('fills the surround with a colour or a gradient, with a shadow under the window', async () => {
    const solid = await png({ code: SNIPPET, width: 400, background: { color: '#1e3a8a' } });
    // outerPadding defaults to 48 with a background.
    expect([solid.width, solid.height]).toEqual([400 + 96, autoHeight(3) + 96]);
    expect(near(solid.pixel(2, 2), [0x1e, 0x3a, 0x8a, 255], 2)).toBe(true);

    const gradient = await png({
      code: SNIPPET,
      width: 400,
      outerPadding: 40,
      shadow: true,
      background: { gradient: { from: '#ff0000', to: '#0000ff', angle: 90 } },
    });
    expect(gradient.width).toBe(480);
    const left = gradient.pixel(1, 5);
    const right = gradient.pixel(478, 5);
    expect(left[0]).toBeGreaterThan(200);
    expect(right[2]).toBeGreaterThan(200);
    // The shadow darkens the surround just under the window.
    const below = gradient.pixel(240, gradient.height - 40 + 8);
    const noShadow = await png({
      code: SNIPPET,
      width: 400,
      outerPadding: 40,
      background: { gradient: { from: '#ff0000', to: '#0000ff', angle: 90 } },
    });
    const plainBelow = noShadow.pixel(240, noShadow.height - 40 + 8);
    expect(below[0] + below[2]).toBeLessThan(plainBelow[0] + plainBelow[2] - 30);

    const jpeg = await gateway.post(CONVERT, { code: SNIPPET, format: 'jpeg', width: 400, background: { color: '#ffffff' } });
    expect(jpeg.status).toBe(200);
    expect(near(decodeJpeg(await bytes(jpeg)).pixel(2, 2), [255, 255, 255, 255], 8)).toBe(true);
  });

  it('highlights lines by their gutter numbers', async () => {
    const code = 'a\nb\nc\nd';
    const img = await png({ code, width: 300, highlightLines: [2, '4-4'] });
    const rowPixel = (row: number) => img.pixel(280, 20 + row * 21 + 10);
    expect(near(rowPixel(0), MONOKAI_BG, 2)).toBe(true);
    expect(near(rowPixel(1), MONOKAI_BG, 2)).toBe(false);
    expect(near(rowPixel(2), MONOKAI_BG, 2)).toBe(true);
    expect(rowPixel(3)).toEqual(rowPixel(1));
    // With firstLineNumber 10, line 11 is the second one.
    const shifted = await png({ code, width: 300, firstLineNumber: 10, highlightLines: ['11-11'] });
    expect(shifted.pixel(280, 20 + 21 + 10)).toEqual(rowPixel(1));
    expect(near(shifted.pixel(280, 30), MONOKAI_BG, 2)).toBe(true);
    // On a light theme (github-light writes its background #fff) the highlight darkens instead.
    const light = await png({ code, width: 300, theme: 'github-light', highlightLines: [2] });
    const [plain, marked] = [light.pixel(280, 30), light.pixel(280, 51)];
    expect(plain.slice(0, 3)).toEqual([255, 255, 255]);
    expect(marked[0]).toBeLessThan(245);
  });

  it('starts the gutter at firstLineNumber, widening it for longer numbers', async () => {
    const one = await png({ code: 'x', width: 300 });
    const thousand = await png({ code: 'x', width: 300, firstLineNumber: 1000 });
    expect(one.height).toBe(thousand.height);
    // Three more digits push the code three characters (3 × 8.4 px) to the right.
    expect(lastInkX(thousand, 20) - lastInkX(one, 20)).toBeGreaterThanOrEqual(24);
    expect(lastInkX(thousand, 20) - lastInkX(one, 20)).toBeLessThanOrEqual(27);
  });

  it('refuses bad frame options with 400 and a clear message', async () => {
    const cases: Array<[Record<string, unknown>, string | RegExp]> = [
      [{ window: { style: 'linux' } }, 'window.style must be one of: mac, windows, none'],
      [{ window: 'mac' }, /window must be an object/],
      [{ window: { style: 'mac', title: 't'.repeat(101) } }, 'window.title must be at most 100 characters'],
      [{ window: { style: 'none', title: 'a.ts' } }, /window.title needs a window bar/],
      [{ background: { color: 'red' } }, 'background.color must be a colour such as #1e3a8a'],
      [{ background: { gradient: { from: '#000000' } } }, 'background.gradient needs from and to colours'],
      [{ background: { color: '#000000', gradient: { from: '#000000', to: '#ffffff' } } }, /either color or gradient/],
      [{ background: { gradient: { from: '#000000', to: '#ffffff', angle: 400 } } }, 'background.gradient.angle must be between 0 and 360'],
      [{ outerPadding: 500 }, 'outerPadding must be between 0 and 200'],
      [{ outerPadding: 10, format: 'jpeg' }, /JPEG has no transparency/],
      [{ shadow: true, format: 'jpeg' }, /JPEG has no transparency/],
      [{ shadow: 'yes' }, 'shadow must be true or false'],
      [{ highlightLines: 3 }, /highlightLines must be a list/],
      [{ highlightLines: ['three'] }, /highlightLines entries must be line numbers/],
      [{ highlightLines: [0] }, /highlightLines/],
      [{ highlightLines: ['7-5'] }, /highlightLines range "7-5" must run from a smaller to a larger line number/],
      [{ highlightLines: Array.from({ length: 51 }, (_, i) => i + 1) }, 'highlightLines has at most 50 entries'],
      [{ firstLineNumber: 0 }, 'firstLineNumber must be between 1 and 1000000'],
      [{ firstLineNumber: 1.5 }, /firstLineNumber must be a whole number/],
    ];
    for (const [extra, message] of cases) {
      const res = await failure({ code: SNIPPET, ...extra });
      expect({ extra, status: res.status }).toEqual({ extra, status: 400 });
      if (typeof message === 'string') expect(res.message).toBe(message);
      else expect(res.message).toMatch(message);
    }
  });

  it('draws a framed image to look at (mac, gradient, shadow, highlighted lines)', async () => {
    const res = await gateway.post(CONVERT, {
      code: "import { readFile } from 'node:fs/promises';\n\nexport async function load(path: string) {\n  const text = await readFile(path, 'utf8');\n  return JSON.parse(text) as Config;\n}\n",
      language: 'typescript',
      theme: 'dracula',
      width: 640,
      window: { style: 'mac', title: 'config.ts' },
      background: { gradient: { from: '#4f46e5', to: '#db2777', angle: 135 } },
      outerPadding: 56,
      shadow: true,
      borderRadius: 10,
      highlightLines: [14, '15-16'],
      firstLineNumber: 12,
      scale: 2,
    });
    expect(res.status).toBe(200);
    const image = await bytes(res);
    if (process.env.CODE_FRAMED_OUT) (await import('node:fs')).writeFileSync(process.env.CODE_FRAMED_OUT, image);
    expect(decodePng(image).width).toBe((640 + 112) * 2);
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
    for (const field of ['window', 'background', 'outerPadding', 'shadow', 'highlightLines', 'firstLineNumber']) {
      expect(schema.properties[field].description, field).toBeTruthy();
    }
    expect(schema.properties.window.properties.style.enum).toEqual(['mac', 'windows', 'none']);
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
