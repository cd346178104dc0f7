import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ScreenshotRenderPayload } from '@render/contracts';
import { parseAllowlist } from '@render/egress-policy';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EgressProxy, startEgressProxy } from '../src/egress/egress-proxy.ts';
import { RenderError } from '../src/renderers/page/render-error.ts';
import { renderScreenshot } from '../src/renderers/screenshot/screenshot.renderer.ts';
import type { ScreenshotContext } from '../src/renderers/screenshot/screenshot-settings.ts';
import { closeServers, listen } from './helpers/local-servers.ts';
import { screenshotJob } from './helpers/screenshot-job.ts';
import { startTestPool, type TestPool } from './helpers/test-pool.ts';

// Screenshot videos over a real Chromium, the real egress proxy and Debian's ffmpeg; the files are read back
// with ffprobe and their frames with ffmpeg. Set SHOTS_DIR to keep a GIF and the scroll's first and last frames.

const run = promisify(execFile);
const FFMPEG = '/usr/bin/ffmpeg';
const SHOTS_DIR = process.env.SHOTS_DIR;

/** A square that spins and changes colour forever (CSS animation) on a still background. */
const ANIMATED = `<!doctype html><html><head><style>
  body { margin: 0; background: #fff }
  @keyframes spin { from { transform: rotate(0deg); background: #e00 } to { transform: rotate(360deg); background: #00e } }
  #box { position: absolute; left: 100px; top: 60px; width: 120px; height: 120px; animation: spin 1s linear infinite }
</style></head><body><div id="box"></div></body></html>`;

/** A page six screens tall, a different colour per screen, so the top and the bottom look nothing alike. */
const TALL = `<!doctype html><html><body style="margin:0">${['#d00', '#e80', '#dd0', '#0a0', '#08d', '#60c']
  .map((colour, i) => `<div style="height:300px;background:${colour};color:#fff;font:48px sans-serif">screen ${i + 1}</div>`)
  .join('')}</body></html>`;

let proxy: EgressProxy;
let browser: TestPool;
let pages: { server: Server; port: number };
let scratch: string;

beforeAll(async () => {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(req.url === '/tall' ? TALL : ANIMATED);
  });
  pages = { server, port: await listen(server) };
  proxy = await startEgressProxy({ allowlist: parseAllowlist(`127.0.0.1:${pages.port}`) });
  browser = await startTestPool('screenshot', proxy.url, 'screen-recording-test');
  scratch = mkdtempSync(path.join(tmpdir(), 'screen-recording-test-'));
});

afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  closeServers(pages?.server);
});

const ctx = (video: ScreenshotContext['video'] = { ffmpegPath: FFMPEG }): ScreenshotContext => ({
  pool: async () => browser.cluster,
  timeoutMs: 10_000,
  imageFetch: { proxyUrl: 'http://127.0.0.1:9', maxBytes: 1024, timeoutMs: 1_000 },
  video,
});

const job = (page: string, extra: Partial<ScreenshotRenderPayload>) =>
  screenshotJob(`http://127.0.0.1:${pages.port}/${page}`, { width: 320, height: 240, ...extra });

interface Probe {
  codec: string;
  width: number;
  height: number;
  duration: number;
  frames: number;
}

/** What ffprobe reads in the file: its first video stream, and its frames counted by decoding them. */
async function probe(bytes: Buffer, name: string): Promise<Probe> {
  const file = path.join(scratch, name);
  writeFileSync(file, bytes);
  const { stdout } = await run('ffprobe', [
    ...['-v', 'error', '-select_streams', 'v:0', '-count_frames'],
    ...['-show_entries', 'stream=codec_name,width,height,nb_read_frames:format=duration', '-of', 'json', file],
  ]);
  const info = JSON.parse(stdout) as { streams: Array<Record<string, string | number>>; format: { duration: string } };
  const stream = info.streams[0]!;
  return {
    codec: String(stream.codec_name),
    width: Number(stream.width),
    height: Number(stream.height),
    duration: Number(info.format.duration),
    frames: Number(stream.nb_read_frames),
  };
}

/** One frame of a video as a PNG, extracted with ffmpeg (`-sseof` from the end for the last one). */
async function frameAt(file: string, where: 'first' | 'last'): Promise<Buffer> {
  const out = path.join(scratch, `${path.basename(file)}-${where}.png`);
  const seek = where === 'first' ? ['-ss', '0'] : ['-sseof', '-0.3'];
  await run(FFMPEG, ['-v', 'error', ...seek, '-i', file, '-frames:v', '1', '-update', '1', '-y', out]);
  return PNG.sync.read(await import('node:fs').then((fs) => fs.readFileSync(out))).data;
}

/** The share of pixels whose colour differs by more than a little between two same-sized frames. */
function changedShare(a: Buffer, b: Buffer): number {
  let changed = 0;
  for (let i = 0; i < a.length; i += 4) {
    const diff = Math.abs(a[i]! - b[i]!) + Math.abs(a[i + 1]! - b[i + 1]!) + Math.abs(a[i + 2]! - b[i + 2]!);
    if (diff > 60) changed++;
  }
  return changed / (a.length / 4);
}

describe('screenshot videos', { timeout: 30_000 }, () => {
  it('records a scroll through a tall page as mp4: H.264 of the viewport, the duration and fps asked for, top and bottom differing', async () => {
    const video = await renderScreenshot(job('tall', { format: 'mp4', scenario: 'scroll', duration: 2, fps: 12 }), ctx());
    expect(video.mimeType).toBe('video/mp4');
    expect(video.format).toBe('mp4');
    const info = await probe(video.bytes, 'scroll.mp4');
    expect(info).toMatchObject({ codec: 'h264', width: 320, height: 240 });
    expect(info.duration).toBeGreaterThan(1.8);
    expect(info.duration).toBeLessThan(2.3);
    expect(Math.abs(info.frames - 24)).toBeLessThanOrEqual(1);

    const file = path.join(scratch, 'scroll.mp4');
    const [first, last] = await Promise.all([frameAt(file, 'first'), frameAt(file, 'last')]);
    // The top screen is red, the bottom one purple: nearly every pixel has changed.
    expect(changedShare(first, last)).toBeGreaterThan(0.5);
    if (SHOTS_DIR) {
      const fs = await import('node:fs');
      fs.copyFileSync(path.join(scratch, 'scroll.mp4-first.png'), path.join(SHOTS_DIR, 'scroll-first.png'));
      fs.copyFileSync(path.join(scratch, 'scroll.mp4-last.png'), path.join(SHOTS_DIR, 'scroll-last.png'));
    }
  });

  it('records an animating page as webm (VP9) for the duration asked for, its frames moving', async () => {
    const video = await renderScreenshot(job('animated', { format: 'webm', scenario: 'idle', duration: 2, fps: 10 }), ctx());
    expect(video.mimeType).toBe('video/webm');
    const info = await probe(video.bytes, 'idle.webm');
    expect(info).toMatchObject({ codec: 'vp9', width: 320, height: 240 });
    expect(info.duration).toBeGreaterThan(1.8);
    expect(info.duration).toBeLessThan(2.3);
    expect(Math.abs(info.frames - 20)).toBeLessThanOrEqual(1);
    const file = path.join(scratch, 'idle.webm');
    const [first, last] = await Promise.all([frameAt(file, 'first'), frameAt(file, 'last')]);
    // Only the spinning square moves: some pixels change, most of the page stays white.
    const share = changedShare(first, last);
    expect(share).toBeGreaterThan(0.01);
    expect(share).toBeLessThan(0.5);
  });

  it('records an animating page as an animated GIF', async () => {
    const video = await renderScreenshot(job('animated', { format: 'gif', scenario: 'idle', duration: 1, fps: 10 }), ctx());
    expect(video.mimeType).toBe('image/gif');
    expect(video.bytes.subarray(0, 6).toString('latin1')).toBe('GIF89a');
    const info = await probe(video.bytes, 'idle.gif');
    expect(info).toMatchObject({ codec: 'gif', width: 320, height: 240 });
    expect(Math.abs(info.frames - 10)).toBeLessThanOrEqual(1);
    expect(info.duration).toBeGreaterThan(0.8);
    expect(info.duration).toBeLessThan(1.3);
    if (SHOTS_DIR) writeFileSync(path.join(SHOTS_DIR, 'idle.gif'), video.bytes);
  });

  it('records a page where nothing moves as the same still frame for the whole duration', async () => {
    const video = await renderScreenshot(job('tall', { format: 'mp4', scenario: 'idle', duration: 1, fps: 5 }), ctx());
    const info = await probe(video.bytes, 'still.mp4');
    expect(Math.abs(info.frames - 5)).toBeLessThanOrEqual(1);
    const file = path.join(scratch, 'still.mp4');
    const [first, last] = await Promise.all([frameAt(file, 'first'), frameAt(file, 'last')]);
    expect(changedShare(first, last)).toBeLessThan(0.01);
  });

  it('fails with a clear message, and leaves no ffmpeg behind, when the video would pass the size cap', async () => {
    const err = await renderScreenshot(
      job('tall', { format: 'mp4', scenario: 'scroll', duration: 1, fps: 10 }),
      ctx({ ffmpegPath: FFMPEG, maxBytes: 2_000 }),
    ).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(RenderError);
    expect((err as RenderError).message).toBe(
      'Failed to capture screenshot: the video would be larger than 2 KB (try a lower fps, size or duration)',
    );
    const { stdout } = await run('ps', ['-o', 'args=', '--ppid', String(process.pid)]);
    expect(stdout).not.toContain('ffmpeg');
  });

  it('says so when the ffmpeg configured is not there', async () => {
    const err = await renderScreenshot(
      job('animated', { format: 'gif', scenario: 'idle', duration: 1, fps: 5 }),
      ctx({ ffmpegPath: '/nonexistent/ffmpeg' }),
    ).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(RenderError);
    expect((err as RenderError).message).toMatch(/^Failed to capture screenshot: the video encoder could not start \(.*ENOENT/);
  });
});
