import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { markdownContent } from './vite/markdown-content.plugin.ts';
import { precompress } from './vite/precompress.plugin.ts';
import { seoFiles } from './vite/seo-files.plugin.ts';

// The gateway the dev server proxies /api to (./scripts/dev starts it on 3000).
const gateway = process.env.GATEWAY_URL ?? 'http://127.0.0.1:3000';

const FRAMEWORK =
  /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?(?:react|react-dom|scheduler|@tanstack\/(?!query-core|react-query)[^/]+|i18next|react-i18next|use-sync-external-store)\//;

export default defineConfig({
  // precompress: .br and .gz beside each text file of the build, which the gateway serves as they are.
  plugins: [react(), tailwindcss(), markdownContent(), seoFiles(), precompress()],
  resolve: {
    // TanStack Store's selector hook asks for the pre-React-18 shim; React 19 has the hook itself (less to load).
    alias: [{ find: /^use-sync-external-store\/shim\/with-selector(?:\.js)?$/, replacement: 'use-sync-external-store/with-selector.js' }],
  },
  server: {
    port: 5173,
    strictPort: true,
    host: '127.0.0.1',
    proxy: { '/api': { target: gateway, changeOrigin: false } },
  },
  preview: { port: 4173, strictPort: true, proxy: { '/api': { target: gateway } } },
  // Source maps are public (linked, served with the bundles) only when the build asks: WEB_SOURCEMAPS=public.
  // Otherwise "hidden": written for an error-report upload but not linked, and the image leaves them out.
  build: {
    sourcemap: process.env.WEB_SOURCEMAPS === 'public' ? true : 'hidden',
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      // Every page needs React, the router and i18next: one file compresses better than the ~20 shared slivers
      // the automatic split cuts them into, and costs fewer requests on a phone. TanStack Query stays out: it
      // loads with the first page that queries (src/app/with-query-client.tsx), not with the landing page.
      output: { codeSplitting: { groups: [{ name: 'framework', test: FRAMEWORK }] } },
    },
  },
  test: {
    environment: 'jsdom',
    include: ['test/**/*.test.{ts,tsx}'],
    setupFiles: ['test/setup.ts'],
    css: false,
  },
});
