import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Real Chromium on a 2-core machine: run files one after another so timings stay sane.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
  },
});
