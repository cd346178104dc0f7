import type { ScreenshotRenderPayload } from '@render/contracts';

/** A screenshot job of `url`: a 400×300 desktop PNG of the first screen, cookie banners hidden, nothing else blocked; `extra` over that. */
export const screenshotJob = (url: string, extra: Partial<ScreenshotRenderPayload> = {}): ScreenshotRenderPayload => ({
  url,
  format: 'png',
  deviceType: 'desktop',
  fullPage: false,
  quality: 80,
  language: 'en-US',
  delay: 0,
  hideCookieBanners: true,
  hideScrollbars: true,
  darkMode: false,
  transparent: false,
  waitUntil: 'load',
  blockAds: false,
  blockTrackers: false,
  width: 400,
  height: 300,
  ...extra,
});
