import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { VideoFormat } from '@render/contracts';
import { failure } from './page-navigation.ts';

export interface VideoEncoderOptions {
  ffmpegPath: string;
  format: VideoFormat;
  fps: number;
  /** The frame size of the output; odd sizes are rounded down to even ones (H.264 and VP9 at 4:2:0 need them). */
  width: number;
  height: number;
  /** ffmpeg stops writing past this (`-fs`); a video that reaches it fails instead of being answered cut. */
  maxBytes: number;
  /** ffmpeg is killed past this, counted from its start, whatever it is doing. */
  timeoutMs: number;
}

/** The codec settings of each format: fast presets, since the worker's cores are shared with Chromium. */
function codecArgs(format: VideoFormat, width: number, height: number): string[] {
  const size = `scale=${width}:${height}:flags=bicubic`;
  switch (format) {
    case 'mp4':
      // faststart moves the index to the front (a browser plays it before it has all of it): needs a file, not a pipe.
      return ['-vf', `${size},format=yuv420p`, '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-movflags', '+faststart'];
    case 'webm':
      return ['-vf', `${size},format=yuv420p`, '-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-row-mt', '1'].concat([
        '-b:v',
        '0',
        '-crf',
        '36',
      ]);
    case 'gif':
      // One pass: a palette made from the frames themselves, then applied (far better than the default web palette).
      return [
        '-filter_complex',
        `[0:v]${size},split[a][b];[a]palettegen=stats_mode=diff[p];[b][p]paletteuse=dither=bayer:bayer_scale=3`,
        '-loop',
        '0',
      ];
  }
}

const sizeText = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;

const even = (n: number) => Math.max(2, n - (n % 2));

/**
 * ffmpeg as a child process of the worker: JPEG frames in on its stdin at a constant rate, the video out to a
 * file of its own temporary folder (mp4's index is written last). Bounded in time (killed past `timeoutMs`)
 * and in size (`-fs` and a check); `abort` kills it and removes the folder. One encoder, one video.
 */
export class VideoEncoder {
  private readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private stderr = '';
  private killedFor: string | undefined;
  private readonly timer: NodeJS.Timeout;
  private spawnError: Error | undefined;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly dir: string,
    private readonly output: string,
    private readonly opts: VideoEncoderOptions,
  ) {
    this.exited = new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
    child.once('error', (err) => {
      this.spawnError = err;
    });
    // Only the end of what ffmpeg says is kept: its last line is the reason it failed.
    child.stderr.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-2_000);
    });
    // A write after ffmpeg has gone (it failed, or was killed) must not become an uncaught EPIPE.
    child.stdin.on('error', () => undefined);
    this.timer = setTimeout(() => this.kill('timeout'), opts.timeoutMs);
    this.timer.unref();
  }

  static async start(opts: VideoEncoderOptions): Promise<VideoEncoder> {
    const dir = await mkdtemp(path.join(tmpdir(), 'render-video-'));
    const output = path.join(dir, `video.${opts.format}`);
    const args = [
      ...['-hide_banner', '-loglevel', 'error', '-threads', '2'],
      ...['-f', 'image2pipe', '-c:v', 'mjpeg', '-framerate', String(opts.fps), '-i', 'pipe:0'],
      ...codecArgs(opts.format, even(opts.width), even(opts.height)),
      ...['-r', String(opts.fps), '-an', '-fs', String(opts.maxBytes), '-y', output],
    ];
    const child = spawn(opts.ffmpegPath, args, { stdio: ['pipe', 'ignore', 'pipe'] }) as unknown as ChildProcessWithoutNullStreams;
    return new VideoEncoder(child, dir, output, opts);
  }

  /** One frame; resolves once ffmpeg has taken it (its stdin's back-pressure paces the caller). */
  write(frame: Buffer): Promise<void> {
    if (this.killedFor || this.spawnError || this.child.exitCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      if (this.child.stdin.write(frame)) resolve();
      else {
        const done = () => {
          this.child.stdin.off('drain', done);
          this.child.off('close', done);
          resolve();
        };
        this.child.stdin.once('drain', done);
        this.child.once('close', done);
      }
    });
  }

  /** Ends the input and answers the video once ffmpeg has written it; fails with the reason otherwise. */
  async finish(): Promise<Buffer> {
    try {
      this.child.stdin.end();
      const { code, signal } = await this.exited;
      if (this.spawnError) throw failure(`the video encoder could not start (${this.spawnError.message})`, true, this.spawnError);
      if (this.killedFor === 'timeout')
        throw failure(`encoding the video took longer than ${Math.round(this.opts.timeoutMs / 1000)} s`, true);
      if (code !== 0) {
        const reason = this.stderr.trim().split('\n').pop() ?? `exit ${code ?? signal}`;
        throw failure(`the video could not be encoded (${reason.slice(0, 200)})`, true);
      }
      const { size } = await stat(this.output);
      if (size >= this.opts.maxBytes)
        throw failure(`the video would be larger than ${sizeText(this.opts.maxBytes)} (try a lower fps, size or duration)`);
      return await readFile(this.output);
    } finally {
      await this.dispose();
    }
  }

  /** Kills ffmpeg (the job failed or ran out of time) and removes its folder. */
  async abort(): Promise<void> {
    this.kill('abort');
    await this.exited;
    await this.dispose();
  }

  private kill(reason: string): void {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.killedFor ??= reason;
    this.child.kill('SIGKILL');
  }

  private async dispose(): Promise<void> {
    clearTimeout(this.timer);
    this.kill('disposed');
    await rm(this.dir, { recursive: true, force: true }).catch(() => undefined);
  }
}
