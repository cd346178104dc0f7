import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Whole stacks of real processes on a small machine: one file, its tests one after another.
    fileParallelism: false,
    testTimeout: 150_000,
    hookTimeout: 240_000,
    pool: 'forks',
  },
});
