/**
 * A fresh PostgreSQL database for one test file, on the run's shared throwaway cluster. Fails (never skips)
 * with install instructions when PostgreSQL is missing.
 */
import { inject } from 'vitest';
import { sharedPostgres } from './postgres';

export async function newTestDatabase(prefix = 't'): Promise<string> {
  const runDir = inject('pgRunDir');
  if (!runDir) throw new Error('pgRunDir is not provided: run the tests with vitest.config.ts (its globalSetup)');
  const cluster = await sharedPostgres(runDir);
  return cluster.createDatabase(prefix);
}
