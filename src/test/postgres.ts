/**
 * A real PostgreSQL for the tests: a throwaway cluster in a temporary directory, on a free loopback port, from
 * Debian's `postgresql` package (binaries in /usr/lib/postgresql/<version>/bin, or on PATH). One cluster serves
 * the whole Vitest run — started by the first test file that needs it, stopped by the global setup's teardown —
 * and each test file gets a database of its own. A test that stops its database starts a cluster of its own.
 *
 * initdb and postgres refuse to run as root: as root they run as the `postgres` user (runuser), which owns the
 * cluster's directory. Nothing here touches a cluster the package may have started on 5432.
 */
import { execFile } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

export const POSTGRES_MISSING =
  "The console store's tests need PostgreSQL (they start a throwaway cluster): install Debian's postgresql package " +
  '(apt-get install -y --no-install-recommends postgresql; .ci/run does it) or put initdb and pg_ctl on PATH.';

/** The directory of initdb / pg_ctl: the newest /usr/lib/postgresql/<version>/bin, else PATH; undefined if none. */
export function findPostgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => existsSync(join(root, v, 'bin', 'initdb')) && existsSync(join(root, v, 'bin', 'pg_ctl')))
      .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a));
    if (versions[0]) return join(root, versions[0], 'bin');
  }
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return dir;
  }
  return undefined;
}

const isRoot = () => process.getuid?.() === 0;

/** Runs a PostgreSQL program; as root, as the `postgres` user. */
async function pgRun(bin: string, program: string, args: string[]): Promise<void> {
  const cmd = isRoot() ? 'runuser' : join(bin, program);
  const argv = isRoot() ? ['-u', 'postgres', '--', join(bin, program), ...args] : args;
  try {
    await run(cmd, argv, { timeout: 60_000 });
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`${program} failed: ${(e.stderr || e.message).trim().slice(0, 600)}`, { cause: err });
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface PostgresCluster {
  port: number;
  dir: string;
  /** A URL for `database` (default `postgres`). */
  url(database?: string): string;
  /** Creates a fresh, empty database and answers its URL. */
  createDatabase(prefix?: string): Promise<string>;
  /** Stops the server (fast shutdown: connections are cut) and starts it again on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and removes its directory. */
  destroy(): Promise<void>;
}

/** Describes a cluster a previous call (maybe in another process) started. */
export interface ClusterInfo {
  port: number;
  dir: string;
  bin: string;
}

function clusterOf(info: ClusterInfo): PostgresCluster {
  const { port, dir, bin } = info;
  const data = join(dir, 'data');
  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c shared_buffers=16MB',
    '-c max_connections=200',
  ].join(' ');
  return {
    port,
    dir,
    url,
    async createDatabase(prefix = 't') {
      const name = `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
      const client = new pg.Client({ connectionString: url() });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name}"`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    stop: () => pgRun(bin, 'pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
    start: () => pgRun(bin, 'pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', 'start']),
    async destroy() {
      if (existsSync(join(data, 'postmaster.pid'))) {
        await pgRun(bin, 'pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** initdb in a new temporary directory and start on a free port (a few tries, should a port be taken meanwhile). */
export async function startPostgresCluster(): Promise<PostgresCluster & { info: ClusterInfo }> {
  const bin = findPostgresBin();
  if (!bin) throw new Error(POSTGRES_MISSING);
  if (isRoot()) {
    try {
      await run('id', ['-u', 'postgres']);
    } catch {
      throw new Error(
        `Running as root, the tests run PostgreSQL as the "postgres" user, which does not exist. ${POSTGRES_MISSING}`,
      );
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'console-pg-'));
  if (isRoot()) {
    const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
    const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
    chownSync(dir, uid, gid);
  }
  try {
    await pgRun(bin, 'initdb', ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync']);
    let lastError: unknown;
    for (let attempt = 0; attempt < 3; attempt++) {
      const info = { port: await freePort(), dir, bin };
      const cluster = clusterOf(info);
      try {
        await cluster.start();
        return Object.assign(cluster, { info });
      } catch (err) {
        lastError = err;
      }
    }
    throw lastError;
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/**
 * The run's shared cluster, started by whichever test file asks first (the others wait for it). `runDir` is
 * the global setup's directory (`inject('pgRunDir')`); its teardown stops the cluster.
 */
export async function sharedPostgres(runDir: string): Promise<PostgresCluster> {
  const ready = join(runDir, 'ready.json');
  const failed = join(runDir, 'error.txt');
  const read = () => {
    if (existsSync(failed)) throw new Error(readFileSync(failed, 'utf8'));
    return existsSync(ready) ? clusterOf(JSON.parse(readFileSync(ready, 'utf8')) as ClusterInfo) : undefined;
  };
  const known = read();
  if (known) return known;
  let starter = false;
  try {
    openSync(join(runDir, 'starting'), 'wx');
    starter = true;
  } catch {
    // Another test file is starting it.
  }
  if (starter) {
    try {
      const cluster = await startPostgresCluster();
      writeFileSync(ready, JSON.stringify(cluster.info));
      return cluster;
    } catch (err) {
      writeFileSync(failed, err instanceof Error ? err.message : String(err));
      throw err;
    }
  }
  const deadline = Date.now() + 90_000;
  for (;;) {
    const c = read();
    if (c) return c;
    if (Date.now() > deadline) throw new Error('Timed out waiting for the test PostgreSQL cluster to start');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Stops the shared cluster of `runDir`, if one was started, and removes everything. */
export async function stopSharedPostgres(runDir: string): Promise<void> {
  const ready = join(runDir, 'ready.json');
  if (existsSync(ready)) await clusterOf(JSON.parse(readFileSync(ready, 'utf8')) as ClusterInfo).destroy();
  rmSync(runDir, { recursive: true, force: true });
}
