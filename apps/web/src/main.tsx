import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { initI18n } from './i18n/i18n.ts';
import { readAppConfig } from './lib/app-config.ts';
import { createSessionStore } from './lib/session/session.store.ts';
import { startTelemetry } from './lib/telemetry.ts';
import './styles.css';

const session = createSessionStore();
void startTelemetry(readAppConfig());

// docs/spec/product.md: nothing is shown before the language is known and its common catalog has loaded.
await initI18n();
void session.start();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App session={session} />
  </StrictMode>,
);
