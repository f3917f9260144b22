/**
 * A proxy under test, in its own process so its CPU time can be read alone (`process.cpuUsage`): `bare` (the
 * yardstick) or `console` (the console server as `npm start` runs it, in front of a configured upstream).
 * Forked by bench/proxy.ts; answers `cpu` messages with its CPU time so far.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startConsole } from '../../src/cli/start';
import { loadConfig } from '../../src/server/config';
import { createLogWriter } from '../../src/server/log';
import { startBareProxy } from './bare-proxy';

const [mode, upstreamUrl, from, to] = process.argv.slice(2) as ['bare' | 'console', string, string, string];
const ports = { from: Number(from), to: Number(to) };
const BENCH_API_KEY = 'cog_bench_proxy_credential_0123456789';

async function start(): Promise<number> {
  if (mode === 'bare') return (await startBareProxy(upstreamUrl, BENCH_API_KEY, ports)).port;
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-proxy-'));
  for (let port = ports.from; ; port++) {
    const config = loadConfig(
      {
        AGENT_PLATFORM_API_KEY: BENCH_API_KEY,
        AGENT_PLATFORM_BASE_URL: upstreamUrl,
        PORT: String(port),
        DATA_DIR: dataDir,
        CONSOLE_AUTH: 'off',
      },
      { dotEnv: {} },
    );
    try {
      // The same log line per request as `npm start` writes, to stdout (the bench reads and drops it).
      return (await startConsole(config, { log: createLogWriter() })).port;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || port >= ports.to) throw err;
    }
  }
}

const port = await start();
process.on('message', (m) => {
  if (m === 'cpu') process.send!({ cpu: process.cpuUsage() });
});
process.send!({ port });
// Exit normally when stopped, so a `--cpu-prof` run writes its profile.
process.on('SIGTERM', () => process.exit(0));
process.on('disconnect', () => process.exit(0));
