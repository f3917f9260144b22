// Lint: TypeScript, React hooks, TanStack Query and Router rules, and the one-way import rules of
// ARCHITECTURE.md: routes → app → features → components/lib → api; features never import each other;
// browser code never imports Node code; the console server and the sandbox never import each other. The
// boundaries are judged on resolved paths (scripts/eslint-boundaries.js: `@/…`, relative and dynamic imports
// alike), with no cycle of runtime imports; the package rules below keep the contract free of React and Node.

const NODE_ONLY = ['server', 'sandbox', 'node', 'cli'];
const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
const nodeOnly = {
  group: NODE_ONLY.flatMap((d) => [`**/${d}/**`, `@/${d}/**`, `**/${d}`, `@/${d}`]),
  message: 'Browser code never imports Node code (server, sandbox, node, cli).',
};
import js from '@eslint/js';
import pluginQuery from '@tanstack/eslint-plugin-query';
import pluginRouter from '@tanstack/eslint-plugin-router';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import boundaries from './scripts/eslint-boundaries.js';

export default tseslint.config(
  {
    ignores: [
      'dist',
      'dist-ssr',
      'reports',
      'test-results',
      'playwright-report',
      'data',
      'src/routeTree.gen.ts',
      'src/api/endpoints.gen.ts',
      // Forbidden imports on purpose: src/node/lint-boundaries.test.ts lints them as if they were in src/.
      'scripts/lint-fixtures',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...pluginQuery.configs['flat/recommended'],
  ...pluginRouter.configs['flat/recommended'],
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // The React Compiler is not used; TanStack Virtual and react-hook-form's watch are fine without it.
      'react-hooks/incompatible-library': 'off',
    },
  },
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { boundaries },
    rules: { 'boundaries/zones': 'error', 'boundaries/no-cycle': 'error' },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: [...NODE_ONLY.map((d) => `src/${d}/**`), 'src/test/**', 'src/**/*.test.{ts,tsx}'],
    rules: restrict([nodeOnly]),
  },
  // Shared UI and plumbing know no feature, no app module and no route.
  {
    files: ['src/components/**/*.{ts,tsx}', 'src/lib/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.{ts,tsx}'],
    rules: restrict([
      nodeOnly,
      {
        group: ['@/features/**', '@/app/**', '@/routes/**', '**/features/**'],
        message: 'Shared code imports no feature.',
      },
    ]),
  },
  // Features never import each other (boundaries/zones, on resolved paths): nor the app shell or routes.
  {
    files: ['src/features/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.{ts,tsx}'],
    rules: restrict([
      nodeOnly,
      { group: ['@/app/**', '@/routes/**'], message: 'Features do not import the app shell or routes.' },
    ]),
  },
  // Three products, three folders: neither the console server nor the sandbox imports the other.
  {
    files: ['src/server/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    rules: restrict([
      { group: ['**/sandbox/**', '**/sandbox', '**/cli/**'], message: 'The console server never imports the sandbox.' },
    ]),
  },
  {
    files: ['src/sandbox/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    rules: restrict([
      { group: ['**/server/**', '**/server', '**/cli/**'], message: 'The sandbox never imports the console server.' },
    ]),
  },
  {
    files: ['src/node/**/*.ts'],
    rules: restrict([
      { group: ['**/server/**', '**/sandbox/**', '**/cli/**'], message: 'Shared Node code imports neither product.' },
    ]),
  },
  {
    files: ['src/api/**/*.ts'],
    ignores: ['src/api/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                'react',
                'react-dom',
                '@tanstack/*',
                'node:*',
                '**/lib/**',
                '**/server/**',
                '@/lib/**',
                '@/features/**',
                '@/components/**',
              ],
              message: 'The contract has no fetch, React or Node dependencies.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/**/*.test.{ts,tsx}', 'src/test/**', 'e2e/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
