/**
 * The production topology of deploy/compose.production.yaml, started without containers: a throwaway
 * PostgreSQL cluster, an API (the sandbox, standing in for the real one), three console replicas, and nginx with
 * deploy/nginx.conf in front (the replicas' names mapped to their loopback ports, a throwaway certificate).
 * Checks through nginx over TLS: readiness; signing in; a guarded change applied once and the same change
 * refused as a conflict through another replica; a database outage (503 from nginx, a readable page for a
 * browser), then 200 again by itself once PostgreSQL is back.
 *
 *   npx tsx deploy/topology-check.ts      (needs PostgreSQL and nginx: apt-get install postgresql nginx-light)
 *
 * Exits 0 when every check passed, 1 otherwise; everything it started is stopped.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN, startTestSandbox } from '../src/test/harness';
import { startPostgresCluster } from '../src/test/postgres';
import { permissionInput, REPLICA_TOKEN, startReplica } from '../src/test/replicas';

const NAME = 'console.example.com';

/** A JSON answer, read loosely: the checks look at a few fields. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = any;

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

/** One HTTPS request to nginx as a browser at https://console.example.com sends it. */
function call(
  port: number,
  method: string,
  path: string,
  opts: { cookie?: string; json?: unknown; form?: string; accept?: string } = {},
) {
  const headers: Record<string, string> = { host: NAME, accept: opts.accept ?? 'application/json' };
  if (opts.cookie) headers.cookie = opts.cookie;
  if (method !== 'GET') headers.origin = `https://${NAME}`;
  let body: string | undefined;
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    headers['content-type'] = 'application/json';
  } else if (opts.form !== undefined) {
    body = opts.form;
    headers['content-type'] = 'application/x-www-form-urlencoded';
  }
  return new Promise<{ status: number; headers: Record<string, unknown>; text: string; body: Answer }>(
    (resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, method, path, headers, servername: NAME, rejectUnauthorized: false },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => {
            let parsed: unknown;
            try {
              parsed = JSON.parse(text);
            } catch {
              parsed = undefined;
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parsed });
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    },
  );
}

const results: string[] = [];
function check(ok: boolean, what: string) {
  results.push(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) process.exitCode = 1;
}

const work = mkdtempSync(join(tmpdir(), 'console-topology-'));
/** What to stop at the end, in the order started (stopped in reverse). */
const stops: Array<() => Promise<unknown>> = [];
// Whatever hangs, the run ends within a minute, and what it started is stopped first.
let stopping: Promise<void> | undefined;
const stopAll = () =>
  (stopping ??= (async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
  })());
const watchdog = setTimeout(() => {
  check(false, 'the run took longer than 60 s');
  void stopAll().finally(() => {
    console.log(results.join('\n'));
    process.exit(1);
  });
}, 60_000);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void stopAll().finally(() => process.exit(1)));
}
const cluster = await startPostgresCluster();
stops.push(() => cluster.destroy());
try {
  const [url, sandbox] = await Promise.all([cluster.createDatabase('topology'), startTestSandbox()]);
  stops.push(() => sandbox.stop());
  const upstream = { baseUrl: sandbox.url, apiKey: ADMIN };
  // Each replica on a free loopback port: the console admits the port-less Host nginx passes on
  // (`console.example.com`) because the name is in ALLOWED_HOSTS, whatever port it serves on. No root needed.
  const replicaPorts = [await freePort(), await freePort(), await freePort()];
  const replicas = await Promise.all(
    replicaPorts.map((port) =>
      startReplica(url, upstream, {
        host: '127.0.0.1',
        port,
        allowedHosts: [NAME],
        consoleEgressIps: ['127.0.0.1'],
      }),
    ),
  );
  stops.push(() => Promise.all(replicas.map((r) => r.close())));

  // nginx with the repository's configuration: only names, ports and paths are swapped.
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      `/CN=${NAME}`,
      '-keyout',
      join(work, 'privkey.pem'),
      '-out',
      join(work, 'fullchain.pem'),
    ],
    { stdio: 'ignore' },
  );
  const [httpPort, tlsPort] = [await freePort(), await freePort()];
  const conf = readFileSync(new URL('./nginx.conf', import.meta.url), 'utf8')
    .replace(/console-(\d):80 /g, (_, n: string) => `127.0.0.1:${replicaPorts[Number(n) - 1]} `)
    .replaceAll('/etc/nginx/tls/', `${work}/`)
    .replace(/^pid .*$/m, `pid ${work}/nginx.pid;`)
    .replace('listen 80;', `listen 127.0.0.1:${httpPort};`)
    .replace('listen 443 ssl http2;', `listen 127.0.0.1:${tlsPort} ssl http2;`)
    .replace(
      'http {',
      `http {\n  client_body_temp_path ${work}/body;\n  proxy_temp_path ${work}/proxy;\n  fastcgi_temp_path ${work}/fastcgi;\n  uwsgi_temp_path ${work}/uwsgi;\n  scgi_temp_path ${work}/scgi;`,
    );
  writeFileSync(join(work, 'nginx.conf'), conf);
  const nginx = spawn('nginx', ['-c', join(work, 'nginx.conf'), '-e', join(work, 'error.log'), '-g', 'daemon off;'], {
    // Its access log is not needed; its errors are.
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let nginxExited = false;
  nginx.once('exit', () => (nginxExited = true));
  stops.push(async () => {
    if (nginxExited) return;
    const exited = new Promise((r) => nginx.once('exit', r));
    nginx.kill('SIGQUIT');
    await exited;
  });
  for (let i = 0; ; i++) {
    try {
      await call(tlsPort, 'GET', '/console/livez');
      break;
    } catch (err) {
      if (nginxExited) throw new Error('nginx did not start (its error is printed above)', { cause: err });
      if (i > 50) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  const ready = await Promise.all([1, 2, 3].map(() => call(tlsPort, 'GET', '/console/readyz')));
  check(
    ready.every((r) => r.status === 200 && r.body?.status === 'ready'),
    'readyz through nginx over TLS: 200 ×3',
  );
  check(String(ready[0]!.headers['strict-transport-security']).includes('max-age'), 'HSTS from nginx');

  const signIn = await call(tlsPort, 'POST', '/console/sign-in', { form: `token=${REPLICA_TOKEN}` });
  const cookie = String(signIn.headers['set-cookie'] ?? '').split(';')[0]!;
  check(signIn.status === 303 && cookie !== '', 'sign-in through nginx');

  const orgs = (await sandbox.api.get('/v3/enterprise/organizations?first=200')).body.items.map(
    (o: { org_id: string }) => o.org_id,
  );
  const path = `/console/git-permissions/orgs/${orgs[2]}`;
  const before = await call(tlsPort, 'GET', path, { cookie });
  const base = before.body.items.map(permissionInput);
  const change = { base_version: before.body.version, permissions: base.slice(1) };
  const first = await call(tlsPort, 'PUT', path, { cookie, json: change });
  const again = await call(tlsPort, 'PUT', path, { cookie, json: change });
  check(
    first.status === 200 && again.status === 409,
    `a guarded change applies once, the same again is a conflict (${first.status}, ${again.status})`,
  );

  await cluster.stop();
  const down = await call(tlsPort, 'GET', '/console/readyz');
  check(down.status === 503 && down.body?.store?.state === 'unavailable', `readyz during the outage: ${down.status}`);
  const page = await call(tlsPort, 'GET', '/', { cookie, accept: 'text/html' });
  check(
    page.status === 503 && page.text.includes('temporarily unavailable'),
    'a page load during the outage gets the HTML page',
  );
  check((await call(tlsPort, 'GET', '/console/livez')).status === 200, 'livez stays 200');
  await cluster.start();
  const t0 = Date.now();
  let back = 0;
  while (Date.now() - t0 < 20_000) {
    back = (await call(tlsPort, 'GET', '/console/readyz')).status;
    if (back === 200) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  check(back === 200, `ready again by itself ${Date.now() - t0} ms after PostgreSQL is back`);
} catch (err) {
  check(false, `the topology could not be exercised: ${err instanceof Error ? err.message : String(err)}`);
} finally {
  await stopAll();
  clearTimeout(watchdog);
  console.log(results.join('\n'));
}
