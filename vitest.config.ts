import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Random order, as Karpenter runs Ginkgo with --randomize-all: state leaking between tests shows up.
    sequence: { shuffle: { files: false, tests: true } },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // The longest files (the demos, the chaos kills) mostly wait on real time: a fork per core, where vitest's
    // default (one fewer) ran the suite one file at a time on two cores.
    maxWorkers: availableParallelism(),
    reporters: ['default'],
    // Vitest starts the projects in name order: `suite` (the files that run operators, processes and the demos on
    // real time) first, the short files of `unit` and `wire` after them, where they fill the gaps at the end.
    projects: [
      {
        extends: true,
        test: { name: 'suite', include: ['test/**/*.test.ts'], exclude: ['test/unit/**', 'test/wire/**'], pool: 'forks' },
      },
      // Files that keep no state outside their tests (no module mocks, no process.env, no fake timers, servers
      // closed in their hooks) share one module graph per worker: importing the product once per worker instead of
      // once per file was most of their time. A test that needs a fresh module graph belongs in `suite`.
      {
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], pool: 'threads', isolate: false },
      },
      {
        extends: true,
        test: { name: 'wire', include: ['test/wire/**/*.test.ts'], pool: 'threads', isolate: false },
      },
    ],
  },
});
