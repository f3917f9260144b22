/** `npm start`: validate the configuration, build the app if needed, start the sandbox if needed, serve. */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { checkSignInName } from '../api/console/session';
import { isLoopbackHost, type Config } from '../server/config';
import { newSecret, SIGN_IN_PATH } from '../server/console/sessions-store';
import { openConsoleStoreFor } from '../server/console/storage/console-store';
import { describeCredentials, resetIpAccessListAt } from '../sandbox';
import { loadConfigOrExit, startConsole } from './start';
import { forgetAddress, recordAddress, runningAddress } from './address';
import { createLogWriter, describeRequestLog, filterRequestLog, requestLogMode } from '../server/log';
import { envReader } from '../node/env';
import { createFirstScreenRenderer } from '../server/first-screen-render';
import { createStaticHandler } from '../server/static';

const root = resolve(import.meta.dirname, '../..');
const dist = join(root, 'dist');

function newestMtime(dir: string, skip: (path: string) => boolean): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (skip(path)) continue;
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path, skip) : statSync(path).mtimeMs);
  }
  return newest;
}

/** The built app is stale when any browser source is newer than dist/index.html. */
function buildIsStale(): boolean {
  const index = join(dist, 'index.html');
  if (!existsSync(index) || !existsSync(join(root, 'dist-ssr', 'first-screen-worker.js'))) return true;
  const built = statSync(index).mtimeMs;
  // Node-only code (the server, the sandbox, shared Node code, these entry points) is not in the bundle.
  const nodeOnly = ['server', 'sandbox', 'node', 'cli', 'test'].map((d) => join('src', d));
  const skip = (p: string) => nodeOnly.some((d) => p.includes(d)) || p.endsWith('.test.ts') || p.endsWith('.test.tsx');
  const sources = [join(root, 'src'), join(root, 'public')].filter(existsSync);
  // The build's own configuration (and its precompression plugin) counts too.
  const buildFiles = ['index.html', 'vite.config.ts', 'scripts/precompress.ts'].map((f) => join(root, f));
  const newest = Math.max(
    ...sources.map((d) => newestMtime(d, skip)),
    ...buildFiles.filter(existsSync).map((f) => statSync(f).mtimeMs),
  );
  return newest > built;
}

const config = loadConfigOrExit();

/**
 * `--as "Dana Reyes"` (or `--as=Dana Reyes`): the person the one-time link is for; the session it opens is
 * theirs, and the history shows their name beside each change they make. Checked as the sign-in page checks a
 * name (1–80 characters, trimmed); a refused one stops here with the reason. Undefined without `--as`.
 */
function signInNameArg(argv: readonly string[]): string | undefined {
  const i = argv.findIndex((a) => a === '--as' || a.startsWith('--as='));
  if (i === -1) return undefined;
  const arg = argv[i]!;
  const raw = arg === '--as' ? argv[i + 1] : arg.slice('--as='.length);
  if (raw === undefined || (arg === '--as' && raw.startsWith('--'))) {
    console.error('--as needs a name: npm start -- --sign-in-link --as "Dana Reyes"');
    process.exit(1);
  }
  const checked = checkSignInName(raw);
  if (!checked.ok) {
    console.error(`--as: ${checked.message}`);
    process.exit(1);
  }
  return checked.value;
}
const signInAs = signInNameArg(process.argv.slice(2));

/**
 * Mints a one-time sign-in link in the console's store (console.db, or PostgreSQL with DATABASE_URL: then
 * every replica accepts it) and answers its URL. With `name`, the session it opens is that person's.
 */
async function newSignInLink(c: Config, base: string, name?: string): Promise<string> {
  const store = await openConsoleStoreFor(c, { waitMs: 5_000 });
  try {
    const secret = newSecret();
    await store.sessions.addLink(secret, Date.now(), name ?? null);
    return `${base}${SIGN_IN_PATH}?once=${secret}`;
  } finally {
    await store.close();
  }
}

const tlsOn = config.tlsCertFile !== undefined && config.tlsKeyFile !== undefined;
if (process.argv.includes('--sign-in-link')) {
  // `npm start -- --sign-in-link`: a new link for the console already running on this DATA_DIR.
  if (config.consoleAuth === 'off') {
    console.error('CONSOLE_AUTH=off: access control is off, there is nothing to sign in to.');
    process.exit(1);
  }
  const host = config.host === '127.0.0.1' ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host;
  // The running console's own address when it recorded one (its PORT need not be set again here).
  const base = runningAddress(config.dataDir) ?? `${tlsOn ? 'https' : 'http'}://${host}:${config.port}`;
  const link = await newSignInLink(config, base, signInAs).catch((err: unknown) => {
    console.error(`No sign-in link: ${err instanceof Error ? err.message : 'the store could not be opened'}`);
    process.exit(1);
  });
  console.log(link);
  console.log(
    config.databaseUrl
      ? 'One-time sign-in link for the consoles sharing this DATABASE_URL (it works once, on any of them).'
      : 'One-time sign-in link for the console running on this DATA_DIR (it works once).',
  );
  console.log(
    signInAs
      ? `It signs in as ${signInAs}: the history shows that name beside each change made in that session.`
      : 'It signs in without a name (the history says "one-time link"); add --as "Your Name" to sign in as a person.',
  );
  process.exit(0);
}

if (process.argv.includes('--reset-ip-access-list')) {
  // `npm start -- --reset-ip-access-list`: clears the sandbox's IP access list in this DATA_DIR, then exits.
  if (config.mode !== 'sandbox') {
    console.error(
      "AGENT_PLATFORM_BASE_URL is set: the console runs against the real API, whose IP access list is the service's own.",
    );
    process.exit(1);
  }
  const dbPath = join(config.dataDir, 'sandbox.db');
  const removed = resetIpAccessListAt(dbPath);
  if (removed.length === 0) console.log(`The sandbox's IP access list in ${dbPath} was already empty.`);
  else {
    // The entries themselves: the admin re-enters the ones still wanted once the console is back.
    console.log(
      `Cleared the sandbox's IP access list in ${dbPath}: ${removed.length} ${removed.length === 1 ? 'entry' : 'entries'} removed:`,
    );
    for (const entry of removed) console.log(`  ${entry}`);
    console.log('Requests from any address are accepted.');
  }
  process.exit(0);
}

// How much of the request log the terminal gets (LOG_REQUESTS, --quiet): refused now when misspelt.
const logMode = requestLogMode(envReader(process.env).get('LOG_REQUESTS'), process.argv, process.stdout.isTTY === true);
if (logMode.problem !== undefined) {
  console.error(logMode.problem);
  process.exit(1);
}
if (config.consoleAuth === 'off') {
  console.warn(
    'Warning: CONSOLE_AUTH=off: access control is off. Any process and any user of this machine can use the console and its credential.',
  );
  if (config.accessToken) console.warn('  (CONSOLE_ACCESS_TOKEN is ignored while CONSOLE_AUTH=off.)');
}
if (config.databaseUrl && config.mode === 'sandbox') {
  console.warn(
    'Note: DATABASE_URL is set and no upstream is configured: this console embeds its own sandbox. Replicas sharing the database must share one upstream too: start one `npm run sandbox` and set AGENT_PLATFORM_BASE_URL and AGENT_PLATFORM_API_KEY on every replica (see README).',
  );
}
if (!isLoopbackHost(config.host) && !tlsOn) {
  console.warn(
    `Warning: HOST=${config.host} serves plain HTTP: the access token and the session cookie cross the network in clear unless a TLS proxy is in front. Set TLS_CERT_FILE and TLS_KEY_FILE to serve HTTPS.`,
  );
}

if (process.argv.includes('--build-if-needed') && buildIsStale()) {
  console.log('Building the console app (first start, or sources changed)…');
  // flock: several servers started at once (parallel e2e runs) must not build into dist/ together.
  // Type checking is the tests' job (`npm run typecheck`); starting only needs the bundle.
  const r = spawnSync(
    'flock',
    [join(root, 'node_modules', '.build.lock'), 'npx', 'vite', 'build', '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (r.status !== 0) {
    console.error('The build failed; see above.');
    process.exit(1);
  }
}
if (!existsSync(join(dist, 'index.html'))) {
  console.error('dist/index.html is missing: run `npm run build` (or `npm start`, which builds when needed).');
  process.exit(1);
}

const log = createLogWriter();
const started = await startConsole(config, {
  serveApp: createStaticHandler(dist, { firstScreen: createFirstScreenRenderer(join(root, 'dist-ssr')) }),
  log: filterRequestLog(logMode.mode, log),
}).catch((err: NodeJS.ErrnoException) => {
  console.error(
    err.code === 'EADDRINUSE'
      ? `PORT=${config.port} is already in use: stop what runs there, or set PORT to another port`
      : `The console could not start: ${err.message}`,
  );
  process.exit(1);
});
console.log(`Agent Platform Console: ${started.url}`);
if (config.consoleAuth === 'on') {
  // Jupyter-style: whoever can read this terminal may sign in; the link works once.
  console.log(
    `  sign in${signInAs ? ` as ${signInAs}` : ''} by opening this one-time link (it works once; each start prints a new one):`,
  );
  console.log(`    ${started.url}${await started.newSignInLink(signInAs)}`);
  if (config.accessToken) console.log('  or with CONSOLE_ACCESS_TOKEN on the sign-in page, or as a Bearer token');
} else {
  console.log('  access control is off (CONSOLE_AUTH=off)');
  if (signInAs) console.log('  (--as is ignored: nobody signs in while CONSOLE_AUTH=off)');
}
if (started.sandbox) {
  console.log(`  upstream: embedded sandbox at ${started.sandbox.url} (data in ${config.dataDir})`);
  console.log('  sandbox credentials, for calling the sandbox directly:');
  for (const c of describeCredentials()) console.log(`    ${c.credential}  ${c.role}`);
} else {
  console.log(`  upstream: ${config.baseUrl}`);
}
console.log(`  console store: ${started.storeDescription}`);
console.log(`  ${describeRequestLog(logMode.mode)}`);
recordAddress(config.dataDir, started.url);
const shutdown = () =>
  void started.close().then(() => {
    forgetAddress(config.dataDir);
    log.flush();
    process.exit(0);
  });
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
