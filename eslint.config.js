// ESLint (flat config). Besides the usual TypeScript and React hooks checks it enforces the
// layers of docs/ARCHITECTURE.md (its table lists them): core imports nothing outside core;
// render reads what it is handed (no store, no controllers, no components); the store knows no
// renderer or controller; components never talk to workers; workers and the Node side use the
// core only; no cycles; no module-level `let` outside the store and the worker sessions.

import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/** A zone of import-x/no-restricted-paths: files under `target` may not import from `from`. */
const zone = (target, from, message) => ({ target, from, message });

/** Zones between the folders of src/core, for its non-test files. */
function innerCore(rules) {
  return rules.map(([layer, banned, message]) => ({
    target: `./src/core/${layer}/**/!(*.test).ts`,
    from: banned.map((b) => `./src/core/${b}`),
    message,
  }));
}

const layers = [
  zone('./src/core', ['./src/!(core)/**', './src/*.{ts,tsx}', './workers/**'], 'core is pure: it imports nothing outside src/core'),
  zone('./src/render', ['./src/store', './src/controllers', './src/components'], 'render reads what it is handed: no store, controllers or components'),
  zone('./src/store', ['./src/render', './src/controllers', './src/components', './workers'], 'the store holds state: no renderer, controller, component or worker'),
  zone('./src/controllers', ['./src/components'], 'controllers drive the store; components call them, not the reverse'),
  zone('./src/components', ['./workers'], 'components render and dispatch: workers are reached through controllers'),
  zone('./workers', ['./src/!(core)/**', './src/*.{ts,tsx}'], 'workers are facades over the core'),
  zone(['./src/cli', './src/server'], ['./src/store', './src/controllers', './src/render', './src/components', './workers'], 'the Node side uses the core only'),
  zone('./src/format.ts', ['./src/!(core)/**'], 'format.ts is a leaf beside the core'),
  zone('./src/node', ['./src/!(core|node)/**', './src/*.{ts,tsx}', './workers/**'], 'src/node holds Node helpers the CLI and the server share: core and Node only'),
  // Inside the core (ARCHITECTURE.md, "Layers inside the core"): model ← import ← parallel, and
  // model ← views ← query ← session; export writes what model and views hold. Tests and
  // core/testing may reach across (a round trip test reads what an exporter wrote).
  ...innerCore([
    ['util', ['model', 'import', 'parallel', 'views', 'query', 'session', 'export', 'testing'], 'util holds the mechanisms every layer shares (memo, latest request): it imports none of them'],
    ['model', ['import', 'parallel', 'views', 'query', 'session', 'export', 'testing'], 'the model is the bottom layer of the core'],
    ['import', ['parallel', 'views', 'query', 'session', 'export', 'testing'], 'importers build the model: no views, sessions or exporters'],
    ['parallel', ['views', 'query', 'session', 'export', 'testing'], 'the parallel loader splits and merges importers only'],
    ['views', ['import', 'parallel', 'query', 'session', 'export', 'testing'], 'views are pure functions of the model'],
    ['query', ['import', 'parallel', 'session', 'export', 'testing'], 'queries read views and the model'],
    ['export', ['parallel', 'query', 'session', 'testing'], 'exporters write what the model and views hold'],
  ]),
];

/** Packages the pure core (and the renderer, for the store) may not import. */
const uiPackages = (names) => names.map((name) => ({ name, message: `${name} does not belong in this layer` }));
const uiPatterns = (names) => names.map((name) => ({ group: [`${name}/*`], message: `${name} does not belong in this layer` }));

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'bench/data/**', 'bench/*.mjs', 'fixtures/**', 'public/**'] },
  // A disable comment that silences nothing (or names a rule ESLint does not know) is an error.
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: {
        // Browser, worker and Node globals the code uses; TypeScript checks the rest.
        window: 'readonly', document: 'readonly', navigator: 'readonly', location: 'readonly', history: 'readonly',
        console: 'readonly', process: 'readonly', Buffer: 'readonly', URL: 'readonly', setTimeout: 'readonly',
      },
    },
    plugins: { 'import-x': importX, 'react-hooks': reactHooks },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver': undefined,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      'no-undef': 'off', // TypeScript does this better
      // Profile text is untrusted: importers and exporters match control characters on purpose.
      'no-control-regex': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
      'import-x/no-restricted-paths': ['error', { zones: layers }],
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'no-restricted-syntax': [
        'error',
        {
          selector: 'Program > VariableDeclaration[kind=/^(let|var)$/], Program > ExportNamedDeclaration > VariableDeclaration[kind=/^(let|var)$/]',
          message: 'module-level mutable state: keep it in the store, a session or an instance',
        },
      ],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    ignores: ['src/core/**/*.test.ts', 'src/core/testing/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: uiPackages(['react', 'react-dom', 'zustand', 'comlink', 'd3-scale']),
        patterns: [...uiPatterns(['react', 'react-dom', 'zustand', 'comlink']), { group: ['node:*'], message: 'the core also runs in a Web Worker: no Node built-ins' }],
      }],
    },
  },
  {
    files: ['src/render/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: uiPackages(['react', 'react-dom', 'zustand', 'comlink']), patterns: uiPatterns(['react', 'react-dom', 'zustand']) }],
    },
  },
  {
    files: ['src/store/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: uiPackages(['react', 'react-dom', 'comlink']) }],
    },
  },
  {
    files: ['src/components/**/*.tsx'],
    rules: {
      'no-restricted-imports': ['error', { paths: uiPackages(['comlink']) }],
    },
  },
  {
    // Tests, benchmarks and scripts keep counters and fixtures at module level, and read JSON
    // (recordings, worker replies) without declaring its whole shape.
    files: ['**/*.test.ts', 'e2e/**', 'bench/**', 'scripts/**', 'bin/**', '*.config.{ts,js}'],
    rules: { 'no-restricted-syntax': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
);
