import { defineConfig } from 'vitest/config';

// The production-mode check (`npm run test:prod`): a build, pruned to production dependencies,
// served by `npm run serve` in live payment mode against a PostgreSQL server. It builds the site,
// so it has its own, longer limits.
export default defineConfig({
  // `~/` as tsconfig.json defines it.
  resolve: { tsconfigPaths: true },
  test: {
    include: ['tests/prod/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 600_000,
    fileParallelism: false,
  },
});
