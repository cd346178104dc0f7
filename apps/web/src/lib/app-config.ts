/**
 * Runtime configuration the gateway writes into index.html (`<script id="app-config">`), so one build
 * runs in every environment. The Vite dev server writes nothing: development has no analytics.
 */
export interface AppConfig {
  environment: string;
  posthogKey?: string;
  posthogHost?: string;
  sentryDsn?: string;
}

export function readAppConfig(doc: Document = document): AppConfig {
  const element = doc.getElementById('app-config');
  if (!element?.textContent) return { environment: 'development' };
  try {
    const parsed = JSON.parse(element.textContent) as Partial<AppConfig>;
    return { ...parsed, environment: typeof parsed.environment === 'string' ? parsed.environment : 'development' };
  } catch {
    return { environment: 'development' };
  }
}
