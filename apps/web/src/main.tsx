import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { createAppRouter } from './app/router.tsx';
import { initI18n } from './i18n/i18n.ts';
import { readAppConfig } from './lib/app-config.ts';
import { keepEarlyInput } from './lib/early-input.ts';
import { expectHydration, whenPageLive } from './lib/page-live.ts';
import { createSessionStore } from './lib/session/session.store.ts';
import { startTelemetry } from './lib/telemetry.ts';
import './styles.css';

const session = createSessionStore();
void startTelemetry(readAppConfig());

// docs/spec/product.md: nothing is shown before the language is known and its common catalog has loaded.
await initI18n();
const container = document.getElementById('root')!;
const servedLanguage = document.documentElement.dataset.prerendered;
const router = createAppRouter({ session });

// A prerendered page (scripts/prerender.mjs) was sent in the reader's language (cookie, else Accept-Language):
// hydrate it once the route's code has loaded, so the first render matches the HTML. Should the stored choice
// differ (a choice made before the cookie existed), the page is rendered afresh in it (once: the cookie is now set).
const app = (
  <StrictMode>
    <App session={session} router={router} />
  </StrictMode>
);
// (The gateway sends a prerendered page only for a URL it fits: its path, no query but campaign tags.)
if (servedLanguage && servedLanguage === document.documentElement.lang) {
  // What TanStack Router's own hydration marks: its top-level Suspense wrappers are left out, as in the HTML.
  router.ssr = { manifest: undefined };
  await router.load();
  expectHydration();
  // What the reader typed into the page's fields while its code loaded, given back once it is live.
  keepEarlyInput(container, whenPageLive());
  hydrateRoot(container, app);
} else if (servedLanguage) {
  // The page's code is loaded first, so the prerendered HTML gives way to the page in the stored language in one
  // step, without a skeleton between.
  await router.load();
  createRoot(container).render(app);
} else {
  createRoot(container).render(app);
}
void session.start();
