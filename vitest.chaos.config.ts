import { defineConfig } from 'vitest/config';

// The chaos scenarios too long for `make test` (`npm run chaos:long`) and those that still find a hole (`npm run chaos:holes`).
export default defineConfig({
  test: {
    include: ['test/chaos/**/*.chaos.ts'],
    testTimeout: 300_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxConcurrency: 3,
  },
});
