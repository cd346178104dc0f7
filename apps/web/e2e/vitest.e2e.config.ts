import { defineConfig } from 'vitest/config';

// End-to-end: the built app served by the real gateway over the full stack, driven by Debian's Chromium.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['e2e/global-setup.ts'],
    testTimeout: 90_000,
    hookTimeout: 180_000,
    // A page's answer waits on real calls in sequence (the session check, then the page's own): a second is short
    // on a loaded machine, so polls wait as long as playwright's own waits.
    expect: { poll: { timeout: 10_000 } },
    fileParallelism: false,
    // One browser at a time: two cores run Chromium for the pages and for the renders.
    maxWorkers: 1,
  },
});
