import { VideoLimits, VideoMimeTypes, type VideoSettings } from '@render/contracts';
import type { CDPSession, Protocol } from 'puppeteer-core';
import type { RenderedImage } from '../page/renderer.ts';
import { failure } from './page-navigation.ts';
import { VideoEncoder } from './video-encoder.ts';

/** What the worker's config says about videos (FFMPEG_PATH, the size cap). */
export interface VideoSettingsOfWorker {
  ffmpegPath: string;
  maxBytes?: number;
}

export const DefaultVideoSettings: VideoSettingsOfWorker = { ffmpegPath: '/usr/bin/ffmpeg' };

export interface RecordingViewport {
  width: number;
  height: number;
}

/** Screencast frames' JPEG quality: the encoder compresses again, so a high one only costs DevTools bandwidth. */
const FRAME_QUALITY = 80;

/**
 * Scrolls the top document from its top to its bottom over `ms`, one step per animation frame, eased in and
 * out. Runs in the page: frames then follow the page's own rendering, not DevTools round trips. `instant`,
 * so a page's `scroll-behavior: smooth` does not turn each step into an animation of its own.
 */
const SCROLL_THROUGH = `(ms) => {
  const root = document.scrollingElement || document.documentElement;
  window.scrollTo({ top: 0, behavior: 'instant' });
  return new Promise((resolve) => requestAnimationFrame((start) => {
    const step = (now) => {
      const t = Math.min(1, (now - start) / ms);
      const eased = (1 - Math.cos(Math.PI * t)) / 2;
      const bottom = Math.max(0, root.scrollHeight - window.innerHeight);
      window.scrollTo({ top: Math.round(bottom * eased), behavior: 'instant' });
      if (t < 1) requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
    resolve();
  }));
}`;

/**
 * Turns the screencast's frames, which Chromium sends when the page changes (irregularly, none while
 * nothing moves), into the constant rate of the video: output frame i shows the last frame painted at or
 * before i / fps. Only the last frame is held, so memory does not grow with the duration.
 */
class FrameTimeline {
  private last: Buffer | undefined;
  private written = 0;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly encoder: VideoEncoder,
    private readonly fps: number,
    private readonly total: number,
    private readonly startedAt: number,
  ) {}

  /** A frame painted at `timestamp` (seconds, the browser's wall clock). */
  add(frame: Buffer, timestamp: number): void {
    // The first frame also stands for the time before it (the page as it was when the recording began).
    this.fillUntil(timestamp - this.startedAt, this.last ?? frame);
    this.last = frame;
  }

  get frames(): number {
    return this.written;
  }

  get hasFrame(): boolean {
    return this.last !== undefined;
  }

  /** The rest of the video with the last frame (or `fallback`, when Chromium painted none), then the writes' end. */
  async close(fallback?: Buffer): Promise<void> {
    const frame = this.last ?? fallback;
    if (frame) this.fillUntil(Number.POSITIVE_INFINITY, frame);
    await this.chain;
  }

  private fillUntil(seconds: number, frame: Buffer): void {
    while (this.written < this.total && this.written / this.fps < seconds) {
      this.written++;
      this.chain = this.chain.then(() => this.encoder.write(frame));
    }
  }
}

/**
 * Records the viewport of a loaded page for `video.duration` seconds (scrolling through it for `scroll`) with
 * Chromium's screencast, and encodes it with ffmpeg. The page is held for the duration plus the encoding,
 * which `VideoLimits.holdMarginMs` bounds: ffmpeg is killed past it.
 */
export async function recordPage(
  session: CDPSession,
  video: VideoSettings,
  viewport: RecordingViewport,
  worker: VideoSettingsOfWorker,
): Promise<RenderedImage> {
  const durationMs = video.duration * 1000;
  const encoder = await VideoEncoder.start({
    ffmpegPath: worker.ffmpegPath,
    format: video.format,
    fps: video.fps,
    width: viewport.width,
    height: viewport.height,
    maxBytes: worker.maxBytes ?? VideoLimits.maxBytes,
    timeoutMs: durationMs + VideoLimits.holdMarginMs,
  });
  const startedAt = Date.now() / 1000;
  const timeline = new FrameTimeline(encoder, video.fps, video.duration * video.fps, startedAt);
  const onFrame = (event: Protocol.Page.ScreencastFrameEvent) => {
    // Acknowledged at once: Chromium sends the next frame only after the previous one is.
    session.send('Page.screencastFrameAck', { sessionId: event.sessionId }).catch(() => undefined);
    timeline.add(Buffer.from(event.data, 'base64'), event.metadata.timestamp ?? Date.now() / 1000);
  };
  let finished = false;
  try {
    session.on('Page.screencastFrame', onFrame);
    await session.send('Page.startScreencast', {
      format: 'jpeg',
      quality: FRAME_QUALITY,
      maxWidth: viewport.width,
      maxHeight: viewport.height,
      everyNthFrame: 1,
    });
    if (video.scenario === 'scroll') await scrollThrough(session, durationMs);
    await sleep(Math.max(0, startedAt * 1000 + durationMs - Date.now()));
    await session.send('Page.stopScreencast').catch(() => undefined);
    session.off('Page.screencastFrame', onFrame);
    // A page that painted nothing while recorded (nothing moved since it loaded) is one still frame throughout.
    const still = timeline.hasFrame ? undefined : await stillFrame(session);
    await timeline.close(still);
    const bytes = await encoder.finish();
    finished = true;
    return { bytes, format: video.format, mimeType: VideoMimeTypes[video.format], width: viewport.width, height: viewport.height };
  } finally {
    session.off('Page.screencastFrame', onFrame);
    if (!finished) await encoder.abort();
  }
}

async function scrollThrough(session: CDPSession, durationMs: number): Promise<void> {
  const answer = await session.send('Runtime.evaluate', {
    expression: `(${SCROLL_THROUGH})(${durationMs})`,
    awaitPromise: true,
    returnByValue: true,
  });
  if (answer.exceptionDetails) throw failure('the page could not be scrolled');
}

async function stillFrame(session: CDPSession): Promise<Buffer> {
  const { data } = await session.send('Page.captureScreenshot', { format: 'jpeg', quality: FRAME_QUALITY });
  return Buffer.from(data, 'base64');
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
