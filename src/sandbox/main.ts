/** `npm run sandbox`: the embedded API alone, on SANDBOX_PORT (default 8787). */
import { join } from 'node:path';
import { loadSandboxConfig, SandboxConfigError } from './config';
import { describeCredentials, resetIpAccessListAt, startSandbox } from './index';

let config;
try {
  config = loadSandboxConfig();
} catch (err) {
  if (!(err instanceof SandboxConfigError)) throw err;
  console.error(err.message);
  process.exit(1);
}
if (process.argv.includes('--reset-ip-access-list')) {
  // `npm run sandbox -- --reset-ip-access-list`: for an admin whose IP access list leaves out their own address.
  const dbPath = join(config.dataDir, 'sandbox.db');
  const removed = resetIpAccessListAt(dbPath);
  if (removed.length === 0) console.log(`The IP access list of ${dbPath} was already empty.`);
  else {
    console.log(
      `Cleared the IP access list of ${dbPath}: ${removed.length} ${removed.length === 1 ? 'entry' : 'entries'} removed:`,
    );
    for (const entry of removed) console.log(`  ${entry}`);
    console.log('Requests from any address are accepted.');
  }
  process.exit(0);
}
const sandbox = await startSandbox({
  dbPath: join(config.dataDir, 'sandbox.db'),
  port: config.port,
  rateLimitPerMinute: config.rateLimitPerMinute,
  tickMs: config.tickMs,
  shape: config.shape,
}).catch((err: NodeJS.ErrnoException) => {
  console.error(
    err.code === 'EADDRINUSE'
      ? `SANDBOX_PORT=${config.port} is already in use: stop what runs there, or set SANDBOX_PORT to another port`
      : `The sandbox could not start: ${err.message}`,
  );
  process.exit(1);
});
console.log(`Agent Platform API sandbox listening on ${sandbox.url}`);
console.log(`  data: ${join(config.dataDir, 'sandbox.db')}`);
if (config.shape === 'vendor') {
  console.log("  shape: vendor (only the vendor's paths and fields, as reference/vendor-openapi.json declares them)");
}
console.log('  credentials (send as Authorization: Bearer <credential>):');
for (const c of describeCredentials()) console.log(`    ${c.credential}  ${c.role} (${c.description})`);
console.log(`  try: curl -H 'Authorization: Bearer cog_sandbox_admin' ${sandbox.url}/v3/enterprise/organizations`);
const shutdown = () => void sandbox.stop().then(() => process.exit(0));
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
