import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Random order, as Karpenter runs Ginkgo with --randomize-all: state leaking between tests shows up.
    sequence: { shuffle: { files: false, tests: true } },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    reporters: ['default'],
  },
});
