#!/usr/bin/env node
// `npm test`: type check, lint and format check, unit + API tests (Vitest), end-to-end tests (Playwright
// against `npm start`), then one line summing every runner: `N passed, N failed`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const run = (cmd, args, env = {}) =>
  spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;

mkdirSync('reports', { recursive: true });
for (const f of ['reports/vitest.json', 'reports/playwright.json']) rmSync(f, { force: true });

let passed = 0;
let failed = 0;

/** Runs a command with its output held back, then prints it whole under its name: for checks run side by side. */
const captured = (name, cmd, args) =>
  new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(cmd, args, { env: process.env });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', (err) => (out += String(err)));
    child.on('close', (code) => {
      const seconds = Math.round((Date.now() - started) / 1000);
      console.log(`\n> ${name} (${cmd} ${args.join(' ')}): ${code === 0 ? 'passed' : 'FAILED'} in ${seconds} s`);
      if (out.trim()) console.log(out.trimEnd());
      resolve(code === 0);
    });
  });

const e2e = !process.argv.includes('--no-e2e');

// Static checks count as one test each: type check, lint, formatting. The generated sources first (the route
// tree and the endpoint table, which all three read), then the type check beside the lint and format checks
// (each is single-threaded: together they take the type check's time). The app's bundle is built after them,
// on the core they leave free while the type check runs on: built once, here, it is found fresh by everything
// after (the CLI's `--build-if-needed` test in Vitest and Playwright's `npm start`), which would each build it
// on a fresh clone. The bundle only: the types are checked beside it (`npm run build` would check them again).
const generated = run('npx', ['tsr', 'generate']) === 0 && run('npx', ['tsx', 'scripts/gen-endpoints.ts']) === 0;
const [typecheck, [lint, format, built]] = await Promise.all([
  generated ? captured('typecheck', 'npx', ['tsc', '-b']) : false,
  (async () => [
    await captured('lint', 'npx', ['eslint', '.']),
    await captured('format:check', 'npx', ['prettier', '--check', '.']),
    e2e && generated ? await captured('build (vite build)', 'npx', ['vite', 'build']) : undefined,
  ])(),
]);
for (const ok of [typecheck, lint, format]) {
  if (ok) passed += 1;
  else failed += 1;
}

/**
 * PostgreSQL for the console store's tests (they start a throwaway cluster): Debian's postgresql package,
 * installed here when missing and possible. Without it those tests fail, saying how to install it.
 */
function ensurePostgres() {
  const found = () =>
    spawnSync('sh', ['-c', 'ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb']).status === 0;
  if (found()) return true;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && spawnSync('sh', ['-c', 'command -v apt-get']).status === 0) {
    console.log("PostgreSQL is missing: installing Debian's postgresql package for the console store's tests…");
    const env = { DEBIAN_FRONTEND: 'noninteractive' };
    if (
      run('apt-get', ['update', '-qq'], env) === 0 &&
      run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'postgresql'], env) === 0
    ) {
      return found();
    }
  }
  console.error(
    "The console store's tests need PostgreSQL: install it (Debian: apt-get install postgresql) or put initdb and pg_ctl on PATH.",
  );
  return false;
}

ensurePostgres();
run('npx', ['vitest', 'run']);
if (existsSync('reports/vitest.json')) {
  const r = JSON.parse(readFileSync('reports/vitest.json', 'utf8'));
  passed += r.numPassedTests ?? 0;
  failed += r.numFailedTests ?? 0;
  // A file that fails to load runs no test; count it as a failure rather than lose it.
  if (r.success === false && (r.numFailedTests ?? 0) === 0) failed += 1;
} else {
  failed += 1;
}

/**
 * The deployment's checks (issue 27): deploy/nginx.conf with `nginx -t`, and the production topology started
 * without containers (PostgreSQL, the sandbox as the API, three replicas, nginx over TLS). Debian's nginx-light
 * and openssl, installed here when missing and possible (RUNLEVEL=1: the package must not start a server).
 */
function ensureNginx() {
  const found = () =>
    spawnSync('sh', ['-c', '(command -v nginx || test -x /usr/sbin/nginx) && command -v openssl']).status === 0;
  if (found()) return true;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && spawnSync('sh', ['-c', 'command -v apt-get']).status === 0) {
    console.log("nginx is missing: installing Debian's nginx-light and openssl for the deployment checks…");
    const env = { DEBIAN_FRONTEND: 'noninteractive', RUNLEVEL: '1' };
    if (
      run('apt-get', ['update', '-qq'], env) === 0 &&
      run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'nginx-light', 'openssl'], env) === 0
    ) {
      return found();
    }
  }
  console.error('The deployment checks need nginx and openssl (Debian: apt-get install nginx-light openssl).');
  return false;
}

if (ensureNginx()) {
  for (const [name, cmd, args] of [
    ['nginx -t on deploy/nginx.conf', 'sh', ['deploy/check-nginx.sh']],
    ['the production topology without containers', 'npx', ['tsx', 'deploy/topology-check.ts']],
  ]) {
    const ok = run(cmd, args) === 0;
    console.log(`> deployment: ${name}: ${ok ? 'passed' : 'FAILED'}`);
    if (ok) passed += 1;
    else failed += 1;
  }
} else {
  failed += 2;
}

/** The browser for Playwright: CHROMIUM_PATH, or Debian's chromium, installed here when missing and possible. */
function ensureChromium() {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (existsSync(path)) return true;
  if (process.env.CHROMIUM_PATH) {
    console.error(`CHROMIUM_PATH=${path} does not exist.`);
    return false;
  }
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && spawnSync('sh', ['-c', 'command -v apt-get']).status === 0) {
    console.log("Chromium is missing: installing Debian's chromium package for the end-to-end tests…");
    const env = { DEBIAN_FRONTEND: 'noninteractive' };
    if (
      run('apt-get', ['update', '-qq'], env) === 0 &&
      run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], env) === 0
    ) {
      return existsSync(path);
    }
  }
  console.error(
    'The end-to-end tests need Chromium: install it (Debian: apt-get install chromium) or set CHROMIUM_PATH.',
  );
  return false;
}

if (e2e) {
  // Built above (or, when the sources could not be generated, here), so the e2e web server starts quickly and a
  // build failure is reported as one.
  if (!ensureChromium()) failed += 1;
  else if (built === false || (built === undefined && run('npx', ['vite', 'build']) !== 0)) failed += 1;
  else {
    run('npx', ['playwright', 'test']);
    if (existsSync('reports/playwright.json')) {
      const r = JSON.parse(readFileSync('reports/playwright.json', 'utf8'));
      passed += r.stats?.expected ?? 0;
      failed += (r.stats?.unexpected ?? 0) + (r.stats?.flaky ?? 0);
      if ((r.errors ?? []).length > 0 && (r.stats?.expected ?? 0) === 0) failed += 1;
    } else {
      failed += 1;
    }
  }
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
