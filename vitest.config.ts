import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** The node-side suites: the sandbox, the console server, the CLI, the contract. */
const NODE_SUITES = [
  'src/sandbox/**/*.test.ts',
  'src/server/**/*.test.ts',
  'src/cli/**/*.test.ts',
  'src/node/**/*.test.ts',
  'src/api/**/*.test.ts',
];

export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  test: {
    environment: 'node',
    setupFiles: ['src/test/setup.ts'],
    // The run's shared PostgreSQL cluster (started only when a test needs it; see src/test/postgres.ts).
    globalSetup: ['src/test/pg-global-setup.ts'],
    // One worker per core. (Vitest's default leaves one core idle: a single worker on a 2-core machine, where the
    // suites then take twice as long. Most of their time is servers answering over loopback, not CPU.)
    maxWorkers: Math.max(2, availableParallelism()),
    testTimeout: 20_000,
    hookTimeout: 30_000,
    reporters: ['default', 'json'],
    outputFile: { json: 'reports/vitest.json' },
    projects: [
      {
        // Every test here starts its own servers and stores and closes them; none leaves global state behind.
        // Sharing a worker's modules between files halves their time: the sandbox's seeded store is copied
        // from one file's sandbox to the next (src/sandbox/index.ts) instead of seeded again for each file.
        extends: true,
        test: { name: 'node', include: NODE_SUITES, isolate: false },
      },
      {
        // The browser-side code (components, screens, hooks, jsdom): each file in a fresh environment.
        extends: true,
        test: { name: 'app', include: ['src/**/*.test.{ts,tsx}'], exclude: NODE_SUITES },
      },
    ],
  },
});
