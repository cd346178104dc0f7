import { isVideoFormat, VideoLimits, VideoScenarios } from '@render/contracts';
import type { FieldDef, Values } from './playground-fields.ts';

/** A screenshot recorded as a video (mp4, webm, gif): its own fields, and the image-only ones hidden. */
export const isVideo = (values: Values) => typeof values.format === 'string' && isVideoFormat(values.format);

export const videoFields: FieldDef[] = [
  { name: 'scenario', kind: 'select', group: 'size', options: () => VideoScenarios, translateOptions: true, visible: isVideo },
  {
    name: 'duration',
    kind: 'number',
    group: 'size',
    min: VideoLimits.minDuration,
    max: VideoLimits.maxDuration,
    step: 1,
    visible: isVideo,
  },
  { name: 'fps', kind: 'number', group: 'size', min: VideoLimits.minFps, max: VideoLimits.maxFps, step: 1, visible: isVideo },
];

export const videoDefaults: Values = {
  scenario: 'scroll',
  duration: String(VideoLimits.defaultDuration),
  fps: String(VideoLimits.defaultFps),
};

/**
 * Choosing a video format (or a device while one is chosen) keeps the size within what a video may be
 * (`VideoLimits.maxPixels`, e.g. the desktop's 1280×800 becomes 1280×720), so the form does not start refused.
 */
export function fitVideoSize(values: Values): Values {
  if (!isVideo(values)) return values;
  const width = Number(values.width);
  const height = Number(values.height);
  if (!(width > 0 && height > 0) || width * height <= VideoLimits.maxPixels) return values;
  return { ...values, height: String(Math.floor(VideoLimits.maxPixels / width)) };
}
