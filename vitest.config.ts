import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'node',
    setupFiles: ['src/test/setup.ts'],
    // The run's shared PostgreSQL cluster (started only when a test needs it; see src/test/postgres.ts).
    globalSetup: ['src/test/pg-global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    reporters: ['default', 'json'],
    outputFile: { json: 'reports/vitest.json' },
  },
});
