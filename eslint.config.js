// ESLint for the shop's TypeScript and Astro components: typescript-eslint's recommended rules, the
// rules of hooks, Astro's recommended rules, and the one-way import flow of the layout (pages →
// components/islands → stores → data → domain; server → domain), checked on resolved paths so a
// relative import and a `~/` alias are the same import. Run with `npm run lint`; CI runs it before
// the tests.
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import astro from 'eslint-plugin-astro';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** A boundary: files under `target` may not import anything under one of `from` (paths from the project root). */
function zone(target, from, message, except = []) {
  return { target: `./src/${target}`, from: from.map((folder) => `./src/${folder}`), message, except };
}

/** The import boundaries of src/, on resolved files (import-x/no-restricted-paths). */
const BOUNDARIES = [
  zone(
    'i18n',
    ['domain', 'data', 'stores', 'islands', 'components', 'pages', 'server', 'layouts', 'scripts'],
    "src/i18n is the shop's texts: plain constants and small functions that import nothing from src/.",
  ),
  zone(
    'domain',
    ['data', 'stores', 'islands', 'components', 'pages', 'server', 'layouts', 'scripts'],
    'src/domain is pure: it imports nothing from the other folders of src/.',
  ),
  zone(
    'data',
    ['stores', 'islands', 'components', 'pages', 'server', 'layouts', 'scripts'],
    'src/data imports only src/domain (and supabase-js, astro:env/client).',
  ),
  zone('stores', ['islands', 'components', 'pages', 'server', 'layouts', 'scripts'], 'src/stores imports only src/data and src/domain.'),
  ...['islands', 'components', 'scripts', 'layouts'].map((folder) =>
    zone(folder, ['server'], "Browser code and components never import src/server: pages fetch and pass props, islands call the shop's /api."),
  ),
  zone(
    'server',
    ['islands', 'stores', 'components', 'pages', 'layouts', 'scripts'],
    'src/server imports src/domain and its own folder, never the browser side.',
  ),
  // Of src/data the server may use only the generated table types (types only).
  {
    target: './src/server',
    from: './src/data',
    except: ['./database.types.ts'],
    message: 'src/server imports src/domain and its own folder; of src/data only the generated database.types.ts.',
  },
];

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

export default tseslint.config(
  {
    ignores: ['node_modules/', 'dist/', 'dist-*/', '.astro/', '.data/', 'test-results/', 'test-results-*/', 'playwright-report/', 'public/', 'supabase/'],
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
    rules: { 'max-lines-per-function': ['error', { max: 120, skipBlankLines: true, skipComments: true }] },
  },

  // Astro components: Astro's recommended rules; the front matter is TypeScript.
  ...astro.configs['flat/recommended'],
  {
    files: ['**/*.astro'],
    languageOptions: { parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.astro'] } },
    rules: { 'no-undef': 'off' },
  },

  // The import boundaries, on resolved paths.
  {
    files: ['src/**/*.{ts,tsx,astro}'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })] },
    rules: { 'import-x/no-restricted-paths': ['error', { zones: BOUNDARIES }] },
  },
  {
    files: ['src/domain/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(astro|astro:.*|@astrojs/.*|@supabase/.*|stripe|@stripe/.*|@paypal/.*|react|react-dom|nanostores|@nanostores/.*|node:.*)$',
              message: 'src/domain is pure TypeScript: no Astro, Supabase, payment SDKs, UI or I/O libraries.',
            },
          ],
        },
      ],
      'no-restricted-globals': ['error', ...BROWSER_GLOBALS],
    },
  },
  {
    // A server or local-stack module does one job: past 400 lines it is doing several.
    files: ['src/server/**/*.ts', 'packages/*/src/**/*.ts'],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }] },
  },
);
