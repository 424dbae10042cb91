import { defineConfig } from 'vitest/config';

// Tests too long for `make test`, each behind its own npm script (`npm run test:package`: pack, install, run the bin).
export default defineConfig({
  test: {
    include: ['test/**/*.slow.ts'],
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: 'forks',
  },
});
