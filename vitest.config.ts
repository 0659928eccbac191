import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Unit, database and local-stack suites (the stack's own tests live in packages/local-supabase/tests). End-to-end tests run with Playwright (tests/e2e).
export default defineConfig({
  // `~/` as tsconfig.json defines it.
  resolve: { tsconfigPaths: true },
  test: {
    include: ['tests/{unit,db,server}/**/*.test.ts', 'packages/*/tests/**/*.test.ts'],
    environment: 'node',
    // Vitest runs one file at a time on two cores by default (a core for the runner); most files
    // wait on their database, servers and timers as much as they compute, and two at a time took
    // the suite from 818 s to 538 s on a two-core machine (one run each, 2026-12-03 and 2026-12-04).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
