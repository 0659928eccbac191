// ESLint for the shop's TypeScript: typescript-eslint's recommended rules, the rules of hooks,
// and the one-way import flow of the layout (pages → components/islands → stores → data → domain;
// server → domain). Run with `npm run lint`; CI runs it before the tests.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * A restricted-import pattern for relative imports that reach into one of `src/`'s top-level
 * folders, e.g. `layer('server')` matches `../server/http.ts` and `../../server/payments/index.ts`.
 * Imports are matched as written (no resolver), which is enough because the shop imports its
 * own code only through relative paths.
 */
function layer(folder, message) {
  return { regex: `^(\\.\\.?/)+(.*/)?${folder}(/|$)`, message };
}

const BROWSER_GLOBALS = [
  'window',
  'document',
  'localStorage',
  'sessionStorage',
  'navigator',
  'location',
  'fetch',
  'XMLHttpRequest',
  'WebSocket',
  'indexedDB',
].map((name) => ({ name, message: 'src/domain is pure: no browser APIs (pass values in instead).' }));

/** `no-restricted-imports` with the given patterns, as an error. */
function restrict(patterns) {
  return { 'no-restricted-imports': ['error', { patterns }] };
}

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'dist-*/',
      '.astro/',
      '.data/',
      'test-results/',
      'test-results-*/',
      'playwright-report/',
      'public/',
      'supabase/',
      '**/*.astro',
    ],
  },
  {
    files: ['**/*.{js,mjs,ts,tsx}'],
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: {
      ecmaVersion: 'latest',
      sourceType: 'module',
      globals: { ...globals.browser, ...globals.node },
    },
    rules: {
      // TypeScript already reports undefined names, with the real types of each environment.
      'no-undef': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // A variable initialised before a try block and assigned inside it keeps a simple type;
      // the rule reports those initial values, which are not bugs.
      'no-useless-assignment': 'off',
    },
  },
  {
    // Astro's generated declarations are referenced the way Astro writes them.
    files: ['**/*.d.ts'],
    rules: { '@typescript-eslint/triple-slash-reference': 'off' },
  },
  {
    // Tests read untyped JSON answers from the API and the local stack.
    files: ['tests/**/*.ts', 'packages/*/tests/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },

  {
    // An island's component is short enough to read at once: state and flows live in src/stores,
    // shared parts in src/islands/ui. (Import cycles are checked by tests/unit/lint/no-cycle.test.ts.)
    files: ['src/islands/**/*.{ts,tsx}'],
    rules: { 'max-lines-per-function': ['error', { max: 120 }] },
  },

  // The import boundaries. Each block restricts what one folder of src/ may import.
  {
    files: ['src/domain/**/*.{ts,tsx}'],
    rules: {
      ...restrict([
        ...['data', 'stores', 'islands', 'components', 'pages', 'server', 'lib', 'layouts', 'scripts'].map((folder) =>
          layer(folder, `src/domain is pure: it imports nothing from src/${folder}.`),
        ),
        {
          regex: '^(astro|astro:.*|@astrojs/.*|@supabase/.*|stripe|@stripe/.*|@paypal/.*|react|react-dom|nanostores|@nanostores/.*|node:.*)$',
          message: 'src/domain is pure TypeScript: no Astro, Supabase, payment SDKs, UI or I/O libraries.',
        },
      ]),
      'no-restricted-globals': ['error', ...BROWSER_GLOBALS],
    },
  },
  {
    files: ['src/data/**/*.{ts,tsx}'],
    rules: restrict(
      ['stores', 'islands', 'components', 'pages', 'server', 'lib', 'layouts', 'scripts'].map((folder) =>
        layer(folder, `src/data imports only src/domain (and supabase-js, astro:env/client), not src/${folder}.`),
      ),
    ),
  },
  {
    files: ['src/stores/**/*.{ts,tsx}'],
    rules: restrict(
      ['islands', 'components', 'pages', 'server', 'lib', 'layouts', 'scripts'].map((folder) =>
        layer(folder, `src/stores imports only src/data and src/domain, not src/${folder}.`),
      ),
    ),
  },
  {
    files: ['src/islands/**/*.{ts,tsx}', 'src/components/**/*.{ts,tsx}', 'src/scripts/**/*.{ts,tsx}'],
    rules: restrict([layer('server', 'Browser code never imports src/server: call the shop\'s /api instead.')]),
  },
  {
    files: ['src/server/**/*.{ts,tsx}'],
    rules: restrict([
      ...['islands', 'stores', 'components', 'pages', 'layouts', 'scripts', 'lib'].map((folder) =>
        layer(folder, `src/server imports src/domain and its own folder, never src/${folder}.`),
      ),
      // Allowed exception: the generated table types (src/data/database.types.ts, types only)
      // type the service-role client too; nothing else of src/data is for the server.
      {
        regex: '^(\\.\\.?/)+(.*/)?data(/(?!database\\.types\\.ts$)|$)',
        message: 'src/server imports src/domain and its own folder; of src/data only the generated database.types.ts.',
      },
    ]),
  },
);
