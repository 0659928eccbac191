import { defineConfig } from 'vitest/config';

// Unit, database and local-stack suites. End-to-end tests run with Playwright (tests/e2e).
export default defineConfig({
  test: {
    include: ['tests/{unit,db,backend}/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
