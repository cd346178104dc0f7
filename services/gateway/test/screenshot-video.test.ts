import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { RenderWorkerHandle } from '@render/render-worker';
import { closeInOrder } from '@render/test-stack/teardown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_TOKEN, type Stack, verifiedUser } from './helpers/auth-stack.ts';
import { startGateway, startStack, startWorker, type TestGateway, uniquePrefix } from './helpers/stack.ts';

// Screenshot videos through the real stack: gateway → queue → worker (Chromium's screencast, Debian's ffmpeg)
// → billing in the real account service. The files are read back with ffprobe.

const run = promisify(execFile);
const ROUTE = '/api/screenshot/convert';

const ANIMATED = `<!doctype html><html><head><style>
  @keyframes spin { to { transform: rotate(360deg) } }
  #box { margin: 40px; width: 60px; height: 60px; background: #e00; animation: spin 1s linear infinite }
</style></head><body style="margin:0;background:#fff"><div id="box"></div></body></html>`;

let auth: Stack;
let worker: RenderWorkerHandle;
let gateway: TestGateway;
let pages: { server: Server; url: string };
let scratch: string;

beforeAll(async () => {
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(ANIMATED));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  pages = { server, url: `http://127.0.0.1:${port}/` };
  const prefix = uniquePrefix('video');
  auth = await startStack();
  worker = await startWorker({
    QUEUE_PREFIX: prefix,
    RENDER_QUEUES: 'screenshot',
    RENDER_TIMEOUT_MS: '6000',
    RENDER_EGRESS_ALLOWLIST: `127.0.0.1:${port}`,
  });
  gateway = await startGateway({ QUEUE_PREFIX: prefix, AUTH_SERVICE_URL: auth.url, INTERNAL_TOKEN });
  scratch = mkdtempSync(path.join(tmpdir(), 'screenshot-video-'));
});

afterAll(async () => {
  await closeInOrder(gateway, worker);
  await auth?.close();
  pages?.server.closeAllConnections();
  await new Promise((resolve) => pages?.server.close(resolve));
});

async function probe(bytes: Buffer, name: string) {
  const file = path.join(scratch, name);
  writeFileSync(file, bytes);
  const { stdout } = await run('ffprobe', [
    ...['-v', 'error', '-select_streams', 'v:0', '-count_frames'],
    ...['-show_entries', 'stream=codec_name,width,height,nb_read_frames:format=duration', '-of', 'json', file],
  ]);
  const info = JSON.parse(stdout) as { streams: Array<Record<string, string | number>>; format: { duration: string } };
  const stream = info.streams[0]!;
  return {
    codec: stream.codec_name,
    width: stream.width,
    height: stream.height,
    duration: Number(info.format.duration),
    frames: Number(stream.nb_read_frames),
  };
}

describe('screenshot video validation', () => {
  it.each([
    [{ duration: 31 }, 'duration must be between 1 and 30 seconds', 'video.durationRange'],
    [{ duration: 0 }, 'duration must be between 1 and 30 seconds', 'video.durationRange'],
    [{ duration: 2.5 }, 'duration must be a whole number of seconds between 1 and 30', 'video.durationType'],
    [{ fps: 60 }, 'fps must be between 1 and 30', 'video.fpsRange'],
    [{ scenario: 'bounce' }, 'scenario must be one of: scroll, idle', 'video.scenario'],
    [{ width: 1920, height: 1080 }, expect.stringMatching(/^a video is at most 921,600 pixels/), 'video.tooLarge'],
    [{ scale: 2, width: 320, height: 240 }, expect.stringMatching(/^a video is at most 921,600 pixels/), 'video.tooLarge'],
    [{ selector: '#box' }, expect.stringMatching(/^a video records the viewport/), 'video.elementCapture'],
    [{ fullPage: true }, expect.stringMatching(/^a video records the viewport/), 'video.elementCapture'],
    [{ transparent: true }, expect.stringMatching(/^a video has no transparency/), 'video.transparent'],
    [{ format: 'png', duration: 5 }, 'scenario, duration and fps apply only to the video formats: mp4, webm and gif', 'video.notForImages'],
  ])('%j → 400 %s', async (fields, message, messageId) => {
    const res = await gateway.post(ROUTE, { url: pages.url, format: 'mp4', ...fields });
    const body = (await res.json()) as { code: string; message: string; messageId?: string };
    expect(res.status, body.message).toBe(400);
    expect(body).toMatchObject({ code: 'VALIDATION_ERROR', message, messageId });
  });
});

describe('POST /api/screenshot/convert as a video', { timeout: 60_000 }, () => {
  it.each([
    ['mp4', 'video/mp4', 'h264'],
    ['webm', 'video/webm', 'vp9'],
    ['gif', 'image/gif', 'gif'],
  ])('answers %s (%s, %s) of the duration and frame count asked for', async (format, contentType, codec) => {
    const res = await gateway.post(ROUTE, { url: pages.url, format, scenario: 'idle', duration: 2, fps: 8, width: 240, height: 160 });
    expect(res.status, res.status === 200 ? '' : await res.clone().text()).toBe(200);
    expect(res.headers.get('content-type')).toBe(contentType);
    const info = await probe(Buffer.from(await res.arrayBuffer()), `stack.${format}`);
    expect(info).toMatchObject({ codec, width: 240, height: 160 });
    expect(info.duration).toBeGreaterThan(1.7);
    expect(info.duration).toBeLessThan(2.4);
    expect(Math.abs(info.frames - 16)).toBeLessThanOrEqual(1);
  });

  it('records the desktop viewport cut to 1280×720 when no size is given', async () => {
    const res = await gateway.post(ROUTE, { url: pages.url, format: 'mp4', duration: 1, fps: 2 });
    expect(res.status).toBe(200);
    const info = await probe(Buffer.from(await res.arrayBuffer()), 'desktop.mp4');
    expect(info).toMatchObject({ width: 1280, height: 720 });
  });

  it('bills a 12 s video three credits, reserved up front and charged with the answer', async () => {
    const user = await verifiedUser(auth);
    const res = await gateway.post(
      ROUTE,
      { url: pages.url, format: 'webm', scenario: 'idle', duration: 12, fps: 2, width: 160, height: 120 },
      { 'x-api-key': user.apiKey },
    );
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    const usage = await auth.call('GET', '/api/auth/usage', { token: user.token });
    expect(((await usage.json()) as { data: { used: number } }).data.used).toBe(3);
  });

  it('gives back every credit of a video that could not be made', async () => {
    const user = await verifiedUser(auth);
    const res = await gateway.post(
      ROUTE,
      { url: 'http://127.0.0.1:9/', format: 'gif', duration: 11, width: 160, height: 120 },
      { 'x-api-key': user.apiKey },
    );
    expect(res.status).toBe(422);
    const usage = await auth.call('GET', '/api/auth/usage', { token: user.token });
    expect(((await usage.json()) as { data: { used: number } }).data.used).toBe(0);
  });
});
