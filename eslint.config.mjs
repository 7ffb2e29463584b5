import { fileURLToPath } from 'node:url';
import nx from '@nx/eslint-plugin';

// The projects' own eslint.config.mjs spread this array, and ESLint resolves a config object's globs against the
// directory of the config file it loaded: the configuration objects below that name paths from the repository's root
// say so (basePath), so they mean the same whichever project is linted.
const ROOT = fileURLToPath(new URL('.', import.meta.url));

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  ...nx.configs['flat/javascript'],
  {
    ignores: ['**/dist', '**/out-tsc', '**/src/generated/**', '.data/**', 'tmp/**'],
  },
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.js', '**/*.mjs', '**/*.cjs', '**/*.cts', '**/*.mts'],
    rules: {
      // Apps never import apps; libs never import apps. Everything shared between services goes through a lib,
      // and what services say to each other goes through libs/contracts.
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: true,
          // the e2e harness starts the system with the same plain-JS tooling as `npm start`; the Node programs'
          // webpack.config.js and jest configurations are built by the shared helpers in tools/build
          allow: [
            '^.*/eslint(\\.base)?\\.config\\.[cm]?[jt]s$',
            '^.*/tools/dev/system\\.mjs$',
            '^.*/tools/dev/test-ca\\.mjs$',
            '^.*/tools/build/service-(webpack|jest)\\.cjs$',
          ],
          // type: apps, tools and the e2e project depend on libs only (so never on each other); libs on libs only.
          // scope: a service (scope:<service>) depends only on libs shared by every service (scope:shared), and so do
          // the shared libs themselves; a lib of one service would carry that service's scope and be its alone.
          depConstraints: [
            { sourceTag: 'scope:gateway', onlyDependOnLibsWithTags: ['scope:shared', 'scope:gateway'] },
            { sourceTag: 'scope:token', onlyDependOnLibsWithTags: ['scope:shared', 'scope:token'] },
            { sourceTag: 'scope:session', onlyDependOnLibsWithTags: ['scope:shared', 'scope:session'] },
            { sourceTag: 'scope:reactor', onlyDependOnLibsWithTags: ['scope:shared', 'scope:reactor'] },
            { sourceTag: 'scope:webhook', onlyDependOnLibsWithTags: ['scope:shared', 'scope:webhook'] },
            // the web console runs in the browser and speaks only the public HTTP API: it imports no workspace project
            // but the browser-safe libs tagged scope:console (libs/csv: the CSV writer it shares with the operator CLI)
            { sourceTag: 'scope:console', onlyDependOnLibsWithTags: ['scope:console'] },
            { sourceTag: 'scope:proxy', onlyDependOnLibsWithTags: ['scope:shared', 'scope:proxy'] },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Configuration is read and checked in one place: a config parser (config.ts, *-config.ts), called at start-up so
    // a bad value stops the process naming the variable, and each variable it reads is in a docs table
    // (tools/docs/env-tables.mjs). `process.env` is the property `env` of `process`, so `process.env.X`,
    // `process.env['X']` and `const { env } = process` are all caught.
    basePath: ROOT,
    files: ['apps/**/*.{ts,tsx,mts,cts,js,mjs,cjs}', 'libs/**/*.{ts,tsx,mts,cts,js,mjs,cjs}'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read configuration in a config parser (config.ts or *-config.ts: checked at start-up, documented in a docs table) and pass the value in.',
        },
      ],
    },
  },
  {
    // the config parsers themselves; tests, the test harnesses, the e2e project, the browser console and the tools;
    // the build and test tooling's own configuration (webpack, jest)
    basePath: ROOT,
    files: [
      '**/config.ts',
      '**/*-config.ts',
      '**/*.spec.ts',
      '**/*.test.ts',
      '**/*.{spec,test}.{mts,cts,js,mjs,cjs}',
      '**/testing/**',
      'libs/testing/**',
      'apps/api-e2e/**',
      'apps/console/**',
      'tools/**',
      '**/webpack.config.{js,cjs,mjs,ts}',
      '**/jest.*.{ts,cts,mts,js,cjs,mjs}',
      '**/jest.config.{ts,cts,mts,js,cjs,mjs}',
    ],
    rules: {
      'no-restricted-properties': 'off',
    },
  },
];
