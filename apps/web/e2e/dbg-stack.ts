import { join } from 'node:path';
import { seedStarterTemplates } from '@render/templates/starters/seed';
import { startFullStack } from './helpers/stack.ts';
const dist = process.env.WEB_E2E_DIST || join(import.meta.dirname, '..', 'dist');
const stack = await startFullStack('web-dbg', {
  auth: { STRIPE_STAND_IN: 'true', APP_URL: 'http://127.0.0.1:9' },
  worker: { RENDER_PAGES: '2' },
  gateway: { WEB_DIST_DIR: dist, APP_ENV: 'test' },
});
await seedStarterTemplates(stack.auth.db);
console.log('URL', stack.gateway.url);
setInterval(() => {}, 1e9);
