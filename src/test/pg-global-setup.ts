/**
 * Vitest global setup: a directory for the run's shared PostgreSQL cluster (see `postgres.ts`). Nothing is
 * started here — the first test file that needs PostgreSQL starts it — so runs without such tests cost nothing;
 * the teardown stops it when one was started.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { stopSharedPostgres } from './postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    pgRunDir: string;
  }
}

export default function setup(project: TestProject) {
  const runDir = mkdtempSync(join(tmpdir(), 'console-pg-run-'));
  project.provide('pgRunDir', runDir);
  return () => stopSharedPostgres(runDir);
}
