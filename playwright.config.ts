import { availableParallelism } from 'node:os';
import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests: the built console served by `npm start` on the embedded sandbox, with a fresh data
 * directory, in Debian's Chromium (override with CHROMIUM_PATH).
 */
const PORT = Number(process.env.E2E_PORT ?? 4173);
const DATA_DIR = process.env.E2E_DATA_DIR ?? `reports/e2e-data-${Date.now()}`;
/**
 * The embedded sandbox's port in this run, fixed so that a test can call the upstream directly with a credential
 * it minted (as a program would). Derived from the console's port so that parallel runs do not collide; workers
 * inherit it through the environment.
 */
const SANDBOX_PORT = (process.env.E2E_SANDBOX_PORT ??= String(PORT + 10_000));
/**
 * The console's access token in this run (not a secret): each worker signs in with it once, and the `request`
 * fixture sends it as a Bearer token (e2e/fixtures.ts). Workers inherit it through the environment.
 */
process.env.E2E_ACCESS_TOKEN ??= 'e2e-console-access-token-not-a-secret';

/**
 * A second console whose embedded sandbox answers in the vendor's exact shapes at the vendor's paths
 * (`SANDBOX_SHAPE=vendor`): the journeys of `e2e/vendor-shape.spec.ts` run against it, so the screens are checked
 * against what the real service sends, not only against the sandbox's richer spec shape.
 */
const VENDOR_PORT = Number(process.env.E2E_VENDOR_PORT ?? PORT + 1);
const VENDOR_SANDBOX_PORT = (process.env.E2E_VENDOR_SANDBOX_PORT ??= String(VENDOR_PORT + 10_000));
const VENDOR_SPEC = /vendor-shape\.spec\.ts$/;

/** The environment of one console under test: `npm start` on the embedded sandbox with a fresh data directory. */
function consoleServer(port: number, sandboxPort: string, dataDir: string, extra: Record<string, string> = {}) {
  return {
    command: 'npm start',
    url: `http://localhost:${port}/console/health`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      SANDBOX_PORT: sandboxPort,
      SANDBOX_TICK_MS: process.env.SANDBOX_TICK_MS ?? '150',
      AGENT_PLATFORM_API_KEY: '',
      AGENT_PLATFORM_BASE_URL: '',
      // Access control as `npm start` has it by default, plus a token the tests sign in with.
      CONSOLE_AUTH: 'on',
      CONSOLE_ACCESS_TOKEN: process.env.E2E_ACCESS_TOKEN!,
      TLS_CERT_FILE: '',
      TLS_KEY_FILE: '',
      ...extra,
    },
  };
}

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  // Two workers here (2 cores); up to four where there are more cores. They share one console server.
  workers: Number(process.env.E2E_WORKERS ?? Math.min(4, Math.max(2, availableParallelism()))),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: 'reports/playwright.json' }]],
  use: {
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    { name: 'spec-shape', testIgnore: VENDOR_SPEC, use: { baseURL: `http://localhost:${PORT}` } },
    { name: 'vendor-shape', testMatch: VENDOR_SPEC, use: { baseURL: `http://localhost:${VENDOR_PORT}` } },
  ],
  webServer: [
    consoleServer(PORT, SANDBOX_PORT, DATA_DIR),
    consoleServer(VENDOR_PORT, VENDOR_SANDBOX_PORT, `${DATA_DIR}-vendor`, { SANDBOX_SHAPE: 'vendor' }),
  ],
});
