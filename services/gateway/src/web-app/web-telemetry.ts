import type { GatewayConfig } from '../config.ts';

/** What the web app reads from `<script id="app-config">` (apps/web/src/lib/app-config.ts). */
export interface WebAppConfig {
  environment: string;
  posthogKey?: string;
  posthogHost?: string;
  sentryDsn?: string;
}

export function webAppConfig(config: GatewayConfig): WebAppConfig {
  return {
    environment: config.APP_ENV,
    ...(config.POSTHOG_KEY ? { posthogKey: config.POSTHOG_KEY, posthogHost: config.POSTHOG_HOST } : {}),
    ...(config.SENTRY_DSN ? { sentryDsn: config.SENTRY_DSN } : {}),
  };
}

/**
 * The origins the CSP must admit for the configured services, and only those: PostHog's API host, its
 * assets host (PostHog's clouds serve scripts from `<region>-assets.i.posthog.com`), the Sentry DSN's host.
 */
export function telemetryOrigins(config: GatewayConfig): { connect: string[]; script: string[] } {
  const connect: string[] = [];
  const script: string[] = [];
  if (config.POSTHOG_KEY) {
    const host = new URL(config.POSTHOG_HOST);
    connect.push(host.origin);
    const cloud = /^([a-z]+)\.i\.posthog\.com$/.exec(host.hostname);
    if (cloud) {
      const assets = `${host.protocol}//${cloud[1]}-assets.i.posthog.com`;
      connect.push(assets);
      script.push(assets);
    } else script.push(host.origin);
  }
  if (config.SENTRY_DSN) connect.push(new URL(config.SENTRY_DSN).origin);
  return { connect, script };
}

/** The app config as a JSON script element: `<` is escaped so no value can close the element. */
export const appConfigElement = (config: WebAppConfig) =>
  `<script type="application/json" id="app-config">${JSON.stringify(config).replace(/</g, '\\u003c')}</script>`;
