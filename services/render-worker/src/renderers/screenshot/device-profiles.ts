import { type DeviceType, ScreenshotDevices, type ScreenshotLanguage } from '@render/contracts';
import { KnownDevices, type Viewport } from 'puppeteer-core';

export interface DeviceSettings {
  viewport: Viewport & { width: number; height: number; deviceScaleFactor: number };
  /** Undefined: the browser's own (desktop) user agent and platform. */
  userAgent?: string;
  /** navigator.platform to match the user agent. */
  platform?: string;
}

/**
 * The viewport and user agent a job renders with. Mobile and tablet come from puppeteer's device table so
 * the user agent, touch and mobile layout (meta viewport honoured) match a real device; explicit
 * width/height/scale override only the size, never the device's nature.
 */
export function deviceSettings(type: DeviceType, overrides: { width?: number; height?: number; scale?: number }): DeviceSettings {
  const profile = ScreenshotDevices[type];
  const known = profile.emulates ? KnownDevices[profile.emulates] : undefined;
  const base = known?.viewport ?? {
    width: profile.width,
    height: profile.height,
    deviceScaleFactor: profile.deviceScaleFactor,
    isMobile: false,
    hasTouch: false,
    isLandscape: false,
  };
  return {
    viewport: {
      ...base,
      width: overrides.width ?? base.width,
      height: overrides.height ?? base.height,
      deviceScaleFactor: overrides.scale ?? base.deviceScaleFactor ?? 1,
    },
    userAgent: known?.userAgent,
    platform: known ? (/iPad/.test(known.userAgent) ? 'iPad' : /iPhone/.test(known.userAgent) ? 'iPhone' : undefined) : undefined,
  };
}

/**
 * Sites often refuse or degrade "HeadlessChrome"; the rest of the string is the real browser's, so the page
 * still sees the engine it runs on.
 */
export const desktopUserAgent = (browserUserAgent: string) => browserUserAgent.replace(/HeadlessChrome/g, 'Chrome');

/** "fr-FR" → "fr-FR,fr": the region first, then the bare language, as browsers send it. */
export function acceptLanguage(language: ScreenshotLanguage): string {
  const base = language.split('-')[0];
  return base && base !== language ? `${language},${base}` : language;
}
