import type { KnipConfig } from 'knip';

/**
 * Dead code, found by knip (`npm run lint` runs it twice). The default run reads the whole project,
 * tests included, and reports unused files, dependencies and exports. The production run
 * (`--production`) reads only the shipped code, the patterns marked with `!`, so an export that only
 * tests still use is reported too; an export kept for tests on purpose says so with `@internal`.
 * Astro's pages, middleware, content config and integrations, Vitest's and Playwright's configs
 * and test files are found by knip's plugins.
 */
const config: KnipConfig = {
  // An export its own module uses is not dead code: only the export keyword would go.
  ignoreExportsUsedInFile: true,
  ignoreIssues: {
    // memorySimStore: the in-memory store of the simulated providers, for their unit tests only.
    'src/server/payments/providers/simulated-records.ts': ['exports'],
  },
  workspaces: {
    '.': {
      entry: [
        'src/pages/**/*.{astro,ts}!',
        // Loaded by scripts/serve.mjs from the compiled runtime (scripts/build-server-runtime.mjs).
        'src/server/serve-runtime.ts!',
        // The custom client directives, named by path in astro.config.mjs.
        'src/integrations/client-directives/*.ts!',
        // The npm scripts (scripts/serve.mjs serves the shop) and the tools they run.
        'scripts/*.{ts,mjs}!',
        'scripts/bench/*.ts!',
        'tests/**/*.{test,spec}.ts',
      ],
      project: ['src/**/*.{ts,tsx,astro,mjs}!', 'scripts/**/*.{ts,mjs}!', 'tests/**/*.ts', '*.{ts,mjs}'],
      // Lighthouse's own browser launcher, which the site bench imports through lighthouse.
      ignoreDependencies: ['chrome-launcher'],
      // PostgreSQL's server binaries, from the system, for the local stack's process test.
      ignoreBinaries: ['initdb', 'postgres'],
    },
    'packages/local-supabase': {
      entry: ['src/pglite-worker.mjs!', 'tests/**/*.test.ts'],
      project: ['src/**/*.{ts,mjs}!', 'tests/**/*.ts'],
    },
  },
};

export default config;
