import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Random order, as Karpenter runs Ginkgo with --randomize-all: state leaking between tests shows up.
    sequence: { shuffle: { files: false, tests: true } },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // The longest files (the demos, the chaos kills) mostly wait on real time: a fork per core, where vitest's
    // default (one fewer) ran the suite one file at a time on two cores.
    maxWorkers: availableParallelism(),
    reporters: ['default'],
  },
});
