import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Each file creates its own database; one at a time keeps scrypt-heavy tests fast on 2 cores.
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
