/** `npm run sandbox`'s settings: where its store lives, its port, rate limit and simulation pace. */
import { resolve } from 'node:path';
import { DEFAULT_SANDBOX_PORT, envReader } from '../node/env';

export interface SandboxConfig {
  dataDir: string;
  port: number;
  rateLimitPerMinute: number | undefined;
  tickMs: number | undefined;
}

export class SandboxConfigError extends Error {}

export function loadSandboxConfig(
  env: NodeJS.ProcessEnv = process.env,
  dotEnv?: Record<string, string>,
): SandboxConfig {
  const { get, int, problems } = envReader(env, dotEnv);
  const config: SandboxConfig = {
    dataDir: resolve(get('DATA_DIR') ?? 'data'),
    port: int('SANDBOX_PORT', DEFAULT_SANDBOX_PORT, 0, 65535),
    rateLimitPerMinute:
      get('SANDBOX_RATE_LIMIT') === undefined ? undefined : int('SANDBOX_RATE_LIMIT', 0, 0, 10_000_000),
    tickMs: get('SANDBOX_TICK_MS') === undefined ? undefined : int('SANDBOX_TICK_MS', 1000, 1, 600_000),
  };
  if (problems.length)
    throw new SandboxConfigError(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  return config;
}
