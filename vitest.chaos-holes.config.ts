import { defineConfig } from 'vitest/config';

// The chaos scenarios that still find a hole on this branch: `npm run chaos:holes`.
export default defineConfig({
  test: {
    include: ['test/chaos/**/*.chaos.ts'],
    testTimeout: 300_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxConcurrency: 3,
  },
});
