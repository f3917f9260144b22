/**
 * The proxy's cost, side by side: calling a fast upstream directly, through a bare `node:http` proxy, and
 * through the console's proxy (guards, header rules, fair gate, redaction, one log line), all in front of one
 * fixed 2 KB JSON upstream (never the sandbox, whose own cost would hide the proxy's). Throughput at 50
 * connections, p50 and p99 latency at 1 and 50 connections, and the CPU time per request of each proxy's
 * process. Each proxy runs in its own process; the upstream runs in a worker thread of this one, beside the
 * load generator (bench/load.ts). Three rounds, the three targets in a rotating order; medians.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { median, type Table } from './lib';
import { percentileOf, runLoad } from './load';
import { startFastUpstream } from './proxy/upstream';

interface Target {
  name: string;
  port: number;
  path: string;
  headers: Record<string, string>;
  /** CPU time of the proxy's process so far (µs); none for the upstream itself. */
  cpu?: () => Promise<number>;
  stop(): void;
}

interface Round {
  rps: number;
  p50: number;
  p99: number;
  p50one: number;
  p99one: number;
  /** CPU µs per request at 50 connections. */
  cpu: number;
}

const UPSTREAM_PATH = '/v3/enterprise/organizations?first=20';
const SECONDS = Number(process.env.BENCH_PROXY_SECONDS ?? 1.5);
const ROUNDS = Number(process.env.BENCH_PROXY_ROUNDS ?? 5);
const PORTS = { upstream: [4470, 4479], bare: [4480, 4489], console: [4490, 4499] } as const;

function forkProxy(mode: 'bare' | 'console', upstreamUrl: string): Promise<Target> {
  const [from, to] = PORTS[mode];
  const child: ChildProcess = fork(
    join(import.meta.dirname, 'proxy', 'target.ts'),
    [mode, upstreamUrl, String(from), String(to)],
    { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'pipe', 'inherit', 'ipc'] },
  );
  // The console writes one log line per request to stdout, as `npm start` does; read and dropped.
  child.stdout!.resume();
  const stop = () => child.kill('SIGTERM');
  process.once('exit', stop);
  const cpu = () =>
    new Promise<number>((resolve) => {
      const on = (m: { cpu?: NodeJS.CpuUsage }) => {
        if (!m.cpu) return;
        child.off('message', on);
        resolve(m.cpu.user + m.cpu.system);
      };
      child.on('message', on);
      child.send('cpu');
    });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the ${mode} proxy exited with ${code}`)));
    child.once('message', (m: { port: number }) =>
      resolve({
        name: mode,
        port: m.port,
        path: `/api${UPSTREAM_PATH}`,
        headers: { accept: 'application/json' },
        cpu,
        stop,
      }),
    );
  });
}

async function measure(t: Target): Promise<Round> {
  const base = { port: t.port, path: t.path, headers: t.headers };
  await runLoad({ ...base, connections: 50, durationMs: 500 });
  const cpu0 = await t.cpu?.();
  const c50 = await runLoad({ ...base, connections: 50, durationMs: SECONDS * 1000 });
  const cpu1 = await t.cpu?.();
  const c1 = await runLoad({ ...base, connections: 1, durationMs: (SECONDS * 1000) / 2, warmupMs: 300 });
  const failed = c50.errors + c1.errors;
  if (failed > 0) throw new Error(`${failed} failed requests through ${t.name}`);
  return {
    rps: c50.rps,
    p50: percentileOf(c50.latencies, 50),
    p99: percentileOf(c50.latencies, 99),
    p50one: percentileOf(c1.latencies, 50),
    p99one: percentileOf(c1.latencies, 99),
    cpu: cpu0 === undefined || cpu1 === undefined ? NaN : (cpu1 - cpu0) / c50.requests,
  };
}

export async function benchProxy(): Promise<Table[]> {
  const upstream = await startFastUpstream({ from: PORTS.upstream[0], to: PORTS.upstream[1] });
  const direct: Target = {
    name: 'direct',
    port: upstream.port,
    path: UPSTREAM_PATH,
    headers: { accept: 'application/json', authorization: 'Bearer cog_bench' },
    stop: () => undefined,
  };
  const bare = await forkProxy('bare', upstream.url);
  const consoleProxy = await forkProxy('console', upstream.url);
  try {
    const targets = [direct, bare, consoleProxy];
    const rounds = new Map<Target, Round[]>(targets.map((t) => [t, []]));
    for (let r = 0; r < ROUNDS; r++) {
      for (let i = 0; i < targets.length; i++) {
        const t = targets[(i + r) % targets.length]!;
        rounds.get(t)!.push(await measure(t));
      }
    }
    const m = (t: Target, k: keyof Round) => median(rounds.get(t)!.map((x) => x[k]));
    const [d, b, c] = targets;
    const ms = (n: number) => `${n.toFixed(3)} ms`;
    const x = (n: number) => `${n.toFixed(2)}×`;
    const latency = (label: string, k: keyof Round) => [
      label,
      ms(m(d!, k)),
      ms(m(b!, k)),
      ms(m(c!, k)),
      x(m(c!, k) / m(d!, k)),
      x(m(c!, k) / m(b!, k)),
    ];
    return [
      {
        title: `Proxy: one fast upstream (a fixed ${upstream.bytes} B JSON answer), median of ${ROUNDS} rounds of ${SECONDS} s`,
        columns: ['', 'direct', 'bare node:http proxy', 'console proxy', 'console / direct', 'console / bare'],
        rows: [
          [
            'throughput, 50 connections',
            ...[d, b, c].map((t) => `${Math.round(m(t!, 'rps'))} req/s`),
            x(m(c!, 'rps') / m(d!, 'rps')),
            x(m(c!, 'rps') / m(b!, 'rps')),
          ],
          latency('latency p50, 1 connection', 'p50one'),
          latency('latency p99, 1 connection', 'p99one'),
          latency('latency p50, 50 connections', 'p50'),
          latency('latency p99, 50 connections', 'p99'),
          [
            'CPU per request (proxy process)',
            '—',
            `${Math.round(m(b!, 'cpu'))} µs`,
            `${Math.round(m(c!, 'cpu'))} µs`,
            '',
            x(m(c!, 'cpu') / m(b!, 'cpu')),
          ],
          [
            'added p50 latency, 1 connection',
            '—',
            ms(m(b!, 'p50one') - m(d!, 'p50one')),
            ms(m(c!, 'p50one') - m(d!, 'p50one')),
            '',
            '',
          ],
        ],
        note: 'The load generator (raw keep-alive sockets, one request in flight per connection) and the upstream share this process; each proxy has its own. On 2 cores the three compete for CPU, as with wrk on the same machine.',
      },
    ];
  } finally {
    bare.stop();
    consoleProxy.stop();
    await upstream.close();
  }
}
