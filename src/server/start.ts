/** Starts the console: the embedded sandbox when no credential is configured, then the console server. */
import { join } from 'node:path';
import { createConsoleServer, type ConsoleServerOptions } from './app';
import type { Config } from './config';
import { SANDBOX_CREDENTIALS, startSandbox, type RunningSandbox } from './sandbox';

export interface StartedConsole {
  url: string;
  port: number;
  sandbox: RunningSandbox | undefined;
  close(): Promise<void>;
}

export async function startConsole(
  config: Config,
  opts: Pick<ConsoleServerOptions, 'serveApp' | 'log'> & { sandboxDbPath?: string } = {},
): Promise<StartedConsole> {
  let sandbox: RunningSandbox | undefined;
  let upstream: { baseUrl: string; apiKey: string };
  if (config.mode === 'sandbox') {
    sandbox = await startSandbox({
      dbPath: opts.sandboxDbPath ?? join(config.dataDir, 'sandbox.db'),
      port: config.sandboxPort,
      host: '127.0.0.1',
      rateLimitPerMinute: config.sandboxRateLimit,
      tickMs: config.sandboxTickMs,
    });
    upstream = { baseUrl: sandbox.url, apiKey: SANDBOX_CREDENTIALS.admin };
  } else {
    upstream = { baseUrl: config.baseUrl!, apiKey: config.apiKey! };
  }
  const server = createConsoleServer({ config, upstream, ...opts });
  const { url, port } = await server.listen();
  return {
    url,
    port,
    sandbox,
    async close() {
      await server.close();
      await sandbox?.stop();
    },
  };
}
