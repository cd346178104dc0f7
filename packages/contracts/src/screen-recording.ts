import { Type } from 'typebox';
import { StringEnum, withMessages } from './schema-helpers.ts';

/** A screenshot answered as a video of the page (issue 30, "Motion"): recorded with Chromium's screencast, encoded by ffmpeg. */
export const VideoFormats = ['mp4', 'webm', 'gif'] as const;
export type VideoFormat = (typeof VideoFormats)[number];
export const VideoMimeTypes = { mp4: 'video/mp4', webm: 'video/webm', gif: 'image/gif' } as const satisfies Record<VideoFormat, string>;

/** `scroll`: from the top of the page to its bottom over the duration. `idle`: the page left as it is, animating. */
export const VideoScenarios = ['scroll', 'idle'] as const;
export type VideoScenario = (typeof VideoScenarios)[number];

export const VideoLimits = {
  minDuration: 1,
  maxDuration: 30,
  defaultDuration: 5,
  minFps: 1,
  maxFps: 30,
  defaultFps: 15,
  /**
   * Most pixels of a frame (width × height, at scale 1): a 720p frame. Bounds the screencast's JPEGs, ffmpeg's
   * work per frame and so how long the encoding after the recording can take.
   */
  maxPixels: 1280 * 720,
  /** Largest video answered (ffmpeg stops writing past it and the render fails with a clear message). */
  maxBytes: 50 * 1024 * 1024,
  /** Seconds of video one credit pays for (a started period counts whole). */
  secondsPerCredit: 5,
  /**
   * What a video may add to the usual render time beyond its own duration: ffmpeg's encoding after the last
   * frame (a 30 s 720p GIF's palette pass is the slowest, a few seconds on 2 cores) and the frames' delivery.
   * The worker's page deadline and the gateway's wait are extended by duration + this, never more.
   */
  holdMarginMs: 15_000,
} as const;

export const isVideoFormat = (format: string): format is VideoFormat => (VideoFormats as readonly string[]).includes(format);

/** Credits a video of `duration` seconds costs: one per started `secondsPerCredit` (12 s → 3). */
export const videoCredits = (duration: number) => Math.max(1, Math.ceil(duration / VideoLimits.secondsPerCredit));

/** The user-facing sentences of the video options (ids `video.*` in the message catalog). */
export const VideoMessages = {
  scenario: `scenario must be one of: ${VideoScenarios.join(', ')}`,
  durationRange: `duration must be between ${VideoLimits.minDuration} and ${VideoLimits.maxDuration} seconds`,
  durationType: `duration must be a whole number of seconds between ${VideoLimits.minDuration} and ${VideoLimits.maxDuration}`,
  fpsRange: `fps must be between ${VideoLimits.minFps} and ${VideoLimits.maxFps}`,
  fpsType: `fps must be a whole number between ${VideoLimits.minFps} and ${VideoLimits.maxFps}`,
  tooLarge: `a video is at most ${VideoLimits.maxPixels.toLocaleString('en-US')} pixels (width × height, e.g. 1280×720) at scale 1`,
  notForImages: 'scenario, duration and fps apply only to the video formats: mp4, webm and gif',
  elementCapture: 'a video records the viewport: selector, clip and fullPage cannot be used with mp4, webm or gif',
  transparent: 'a video has no transparency: transparent and omitBackground cannot be used with mp4, webm or gif',
} as const;

/**
 * The body fields of a video screenshot. Optional without schema defaults: Ajv would otherwise fill them in
 * for every image too; `videoSettings` applies the defaults.
 */
export const videoBodyFields = () => ({
  scenario: Type.Optional(
    withMessages(
      StringEnum(VideoScenarios, {
        description:
          'Video formats only: scroll (the default) scrolls smoothly from the top of the page to its bottom over the duration; ' +
          'idle records the page as it is (its animations) for the duration',
      }),
      { enum: VideoMessages.scenario, type: VideoMessages.scenario },
    ),
  ),
  duration: Type.Optional(
    withMessages(
      Type.Integer({
        minimum: VideoLimits.minDuration,
        maximum: VideoLimits.maxDuration,
        description:
          `Video formats only: length of the video in seconds (default ${VideoLimits.defaultDuration}, at most ${VideoLimits.maxDuration}). ` +
          `Billed one credit per started ${VideoLimits.secondsPerCredit} s`,
      }),
      { range: VideoMessages.durationRange, type: VideoMessages.durationType },
    ),
  ),
  fps: Type.Optional(
    withMessages(
      Type.Integer({
        minimum: VideoLimits.minFps,
        maximum: VideoLimits.maxFps,
        description: `Video formats only: frames per second (default ${VideoLimits.defaultFps}, at most ${VideoLimits.maxFps})`,
      }),
      { range: VideoMessages.fpsRange, type: VideoMessages.fpsType },
    ),
  ),
});

export interface VideoSettings {
  format: VideoFormat;
  scenario: VideoScenario;
  duration: number;
  fps: number;
}

/** A video job's settings with the defaults applied; undefined for an image or PDF. */
export function videoSettings(p: { format: string; scenario?: VideoScenario; duration?: number; fps?: number }): VideoSettings | undefined {
  if (!isVideoFormat(p.format)) return undefined;
  return {
    format: p.format,
    scenario: p.scenario ?? 'scroll',
    duration: p.duration ?? VideoLimits.defaultDuration,
    fps: p.fps ?? VideoLimits.defaultFps,
  };
}

/** How much longer than an image a video job may hold a page and a gateway wait: its duration plus the margin. */
export const videoExtraMs = (p: { format: string; duration?: number }) =>
  isVideoFormat(p.format) ? (p.duration ?? VideoLimits.defaultDuration) * 1000 + VideoLimits.holdMarginMs : 0;
