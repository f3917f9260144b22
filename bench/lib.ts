/** Shared benchmark plumbing: start the console on a fresh sandbox, time HTTP load, report figures. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Figure {
  name: string;
  value: number;
  unit: string;
  note?: string;
}

export interface RunningConsole {
  url: string;
  sandboxUrl: string;
  stop(): void;
}

/** `npm start` on a fresh data dir; resolves once both URLs are printed. */
export function startConsoleProcess(env: Record<string, string> = {}): Promise<RunningConsole> {
  const port = 4900 + Math.floor(Math.random() * 90);
  const child: ChildProcess = spawn('npx', ['tsx', 'src/cli/main.ts', '--build-if-needed'], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-')),
      AGENT_PLATFORM_API_KEY: '',
      AGENT_PLATFORM_BASE_URL: '',
      // The bench measures the console on loopback, as one user: no sign-in step in the way.
      CONSOLE_AUTH: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
    // Its own process group, so stopping it also stops the node process npx starts.
    detached: true,
  });
  const stop = () => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  process.once('exit', stop);
  return new Promise((resolve, reject) => {
    let out = '';
    let url = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      url ||= /Agent Platform Console: (\S+)/.exec(out)?.[1] ?? '';
      const sandboxUrl = /embedded sandbox at (\S+)/.exec(out)?.[1];
      if (url && sandboxUrl) {
        child.stdout!.removeAllListeners('data');
        child.stdout!.resume();
        resolve({ url, sandboxUrl, stop });
      }
    });
    child.on('exit', (code) => reject(new Error(`console exited with ${code}:\n${out}`)));
  });
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Sends `total` GETs with `concurrency` in flight over keep-alive; answers latencies (ms) and throughput. */
export async function load(
  url: string,
  headers: Record<string, string>,
  total: number,
  concurrency: number,
): Promise<{ latencies: number[]; rps: number; errors: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const u = new URL(url);
  const latencies: number[] = [];
  let errors = 0;
  let sent = 0;
  const one = () =>
    new Promise<void>((resolve) => {
      const t0 = process.hrtime.bigint();
      const req = request(
        { host: u.hostname, port: u.port, path: u.pathname + u.search, headers: { ...headers, host: u.host }, agent },
        (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode !== 200) errors++;
            latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end();
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (sent < total) {
        sent++;
        await one();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { latencies, rps: total / seconds, errors };
}
