/** `npm start`: validate the configuration, build the app if needed, start the sandbox if needed, serve. */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError, loadConfig } from './config';
import { describeCredentials } from './sandbox';
import { startConsole } from './start';
import { createStaticHandler } from './static';

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
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  const skip = (p: string) => p.includes(join('src', 'server')) || p.endsWith('.test.ts') || p.endsWith('.test.tsx');
  const sources = [join(root, 'src'), join(root, 'public')].filter(existsSync);
  const newest = Math.max(...sources.map((d) => newestMtime(d, skip)), statSync(join(root, 'index.html')).mtimeMs);
  return newest > built;
}

let config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    console.error('See the configuration table in README.md.');
    process.exit(1);
  }
  throw err;
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

const started = await startConsole(config, {
  serveApp: createStaticHandler(dist),
  log: (line) => console.log(line),
}).catch((err: NodeJS.ErrnoException) => {
  console.error(
    err.code === 'EADDRINUSE'
      ? `PORT=${config.port} is already in use: stop what runs there, or set PORT to another port`
      : `The console could not start: ${err.message}`,
  );
  process.exit(1);
});
console.log(`Agent Platform Console: ${started.url}`);
if (started.sandbox) {
  console.log(`  upstream: embedded sandbox at ${started.sandbox.url} (data in ${config.dataDir})`);
  console.log('  sandbox credentials, for calling the sandbox directly:');
  for (const c of describeCredentials()) console.log(`    ${c.credential}  ${c.role}`);
} else {
  console.log(`  upstream: ${config.baseUrl}`);
}
const shutdown = () => void started.close().then(() => process.exit(0));
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
