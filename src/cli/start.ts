/** Starts the console: the embedded sandbox when no credential is configured, then the console server. */
import { join } from 'node:path';
import { createConsoleServer, type ConsoleServerOptions } from '../server/app';
import { ConfigError, loadConfig, type Config } from '../server/config';
import { SANDBOX_CREDENTIALS, startSandbox, type RunningSandbox } from '../sandbox';
import { openConsoleStoreFor } from '../server/console/storage/console-store';
import { describeDatabaseUrl } from '../server/console/storage/postgres';

export interface StartedConsole {
  url: string;
  port: number;
  sandbox: RunningSandbox | undefined;
  /** A new one-time sign-in link (path and query), bound to a person's name when one is given. */
  signInLink(name?: string | null): string;
  /** The same, once stored (every replica on the same database accepts it). */
  newSignInLink(name?: string | null): Promise<string>;
  /** Where the console keeps its own store, for the start's banner (never a password). */
  storeDescription: string;
  close(): Promise<void>;
}

export async function startConsole(
  config: Config,
  opts: Pick<ConsoleServerOptions, 'serveApp' | 'log'> & { sandboxDbPath?: string } = {},
): Promise<StartedConsole> {
  let sandbox: RunningSandbox | undefined;
  let upstream: { baseUrl: string; apiKey: string };
  if (config.mode === 'sandbox') {
    const sandboxOpts = {
      dbPath: opts.sandboxDbPath ?? join(config.dataDir, 'sandbox.db'),
      host: '127.0.0.1',
      rateLimitPerMinute: config.sandboxRateLimit,
      tickMs: config.sandboxTickMs,
      shape: config.sandboxShape,
    };
    try {
      sandbox = await startSandbox({ ...sandboxOpts, port: config.sandboxPort });
    } catch (err) {
      const inUse = (err as NodeJS.ErrnoException).code === 'EADDRINUSE';
      if (!inUse) throw err;
      if (config.sandboxPortExplicit) {
        throw new Error(`SANDBOX_PORT=${config.sandboxPort} is already in use: choose another port, or unset it`, {
          cause: err,
        });
      }
      // The default port is taken (say, by `npm run sandbox` or another console): any free port will do.
      sandbox = await startSandbox({ ...sandboxOpts, port: 0 });
    }
    upstream = { baseUrl: sandbox.url, apiKey: SANDBOX_CREDENTIALS.admin };
  } else {
    upstream = { baseUrl: config.baseUrl!, apiKey: config.apiKey! };
  }
  // The console's own store first: with DATABASE_URL it waits for PostgreSQL and migrates it.
  const store = await openConsoleStoreFor(config).catch(async (err: unknown) => {
    await sandbox?.stop();
    throw err;
  });
  const server = createConsoleServer({ config, upstream, store, ...opts });
  const { url, port } = await server.listen().catch(async (err: unknown) => {
    await store.close().catch(() => undefined);
    await sandbox?.stop();
    throw err;
  });
  return {
    url,
    port,
    sandbox,
    signInLink: (name) => server.signInLink(name),
    newSignInLink: (name) => server.newSignInLink(name),
    storeDescription: config.databaseUrl
      ? `PostgreSQL at ${describeDatabaseUrl(config.databaseUrl)}`
      : `SQLite in ${config.dataDir}/console.db`,
    async close() {
      await server.close();
      await sandbox?.stop();
    },
  };
}

/** The configuration, or the start refused with one line per problem (exit 1). */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(err.message);
    console.error('See the configuration table in README.md.');
    process.exit(1);
  }
}
