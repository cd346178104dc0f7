import {
  AppError,
  isVideoFormat,
  type ScreenshotConvertBody,
  ScreenshotDevices,
  type ScreenshotRenderPayload,
  VideoLimits,
  VideoMessages,
  videoSettings,
} from '@render/contracts';

const refuse = (message: string) => new AppError('VALIDATION_ERROR', message);

/**
 * The video part of a screenshot call (mp4, webm, gif): checked before anything is queued, and written into
 * the payload with its defaults applied, so the worker, the deadline and the bill read the same duration.
 * A video records the viewport at scale 1, at most `VideoLimits.maxPixels`: a device whose own viewport is
 * larger (desktop 1280×800, tablet) is cut to that height when the caller gave no size; a size asked for that
 * is larger is refused. Images must not carry the video fields.
 */
export function videoPayload(body: ScreenshotConvertBody, payload: ScreenshotRenderPayload): void {
  const video = videoSettings(body);
  if (!video) {
    if (body.scenario !== undefined || body.duration !== undefined || body.fps !== undefined) throw refuse(VideoMessages.notForImages);
    return;
  }
  if (body.selector !== undefined || body.clip !== undefined || body.fullPage) throw refuse(VideoMessages.elementCapture);
  if (body.transparent || body.omitBackground) throw refuse(VideoMessages.transparent);
  if (body.scale !== undefined && body.scale !== 1) throw refuse(VideoMessages.tooLarge);
  const device = ScreenshotDevices[body.deviceType];
  const width = body.width ?? device.width;
  let height = body.height ?? device.height;
  if (width * height > VideoLimits.maxPixels) {
    if (body.width !== undefined || body.height !== undefined) throw refuse(VideoMessages.tooLarge);
    height = Math.floor(VideoLimits.maxPixels / width);
    payload.height = height;
  }
  payload.scale = 1;
  payload.scenario = video.scenario;
  payload.duration = video.duration;
  payload.fps = video.fps;
}

/** Whether a screenshot payload is a video (its format). */
export const isVideoPayload = (payload: { format: string }) => isVideoFormat(payload.format);
