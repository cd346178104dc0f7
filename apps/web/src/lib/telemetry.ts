import type { AppConfig } from './app-config.ts';

/**
 * Product analytics (PostHog, EU host) and error reports (Sentry), docs/spec/calls.md: only outside local
 * development and only when their keys are configured. The SDKs are loaded on demand, so with no keys
 * neither their code nor any request leaves the browser.
 */
type Capture = (event: string, properties?: Record<string, unknown>) => void;
let capture: Capture = () => {};

export const trackEvent: Capture = (event, properties) => capture(event, properties);

const isLocal = (config: AppConfig) => config.environment === 'development' || config.environment === 'test';

export async function startTelemetry(config: AppConfig): Promise<void> {
  if (isLocal(config)) return;
  const tasks: Promise<void>[] = [];
  if (config.posthogKey) {
    tasks.push(
      import('posthog-js').then(({ default: posthog }) => {
        posthog.init(config.posthogKey!, {
          api_host: config.posthogHost ?? 'https://eu.i.posthog.com',
          person_profiles: 'identified_only',
          capture_pageview: 'history_change',
        });
        capture = (event, properties) => posthog.capture(event, properties);
      }),
    );
  }
  if (config.sentryDsn) {
    tasks.push(
      import('@sentry/react').then((Sentry) => {
        // docs/spec/calls.md: personal data sending is on. SDK 11 replaced `sendDefaultPii` with `dataCollection`.
        Sentry.init({ dsn: config.sentryDsn, environment: config.environment, dataCollection: { userInfo: true } });
      }),
    );
  }
  await Promise.allSettled(tasks);
}
