import { defineConfig } from 'vitest/config';

// Unit, database and local-stack suites (the stack's own tests live in packages/local-supabase/tests). End-to-end tests run with Playwright (tests/e2e).
export default defineConfig({
  // `~/` as tsconfig.json defines it.
  resolve: { tsconfigPaths: true },
  test: {
    include: ['tests/{unit,db,server}/**/*.test.ts', 'packages/*/tests/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
