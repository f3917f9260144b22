/** `npm run sandbox`: the embedded API alone, on SANDBOX_PORT (default 8787). */
import { join } from 'node:path';
import { loadConfig } from '../config';
import { describeCredentials, startSandbox } from './index';

const config = loadConfig(process.env, { sandboxOnly: true });
const sandbox = await startSandbox({
  dbPath: join(config.dataDir, 'sandbox.db'),
  port: config.sandboxPort,
  rateLimitPerMinute: config.sandboxRateLimit,
  tickMs: config.sandboxTickMs,
});
console.log(`Agent Platform API sandbox listening on ${sandbox.url}`);
console.log(`  data: ${join(config.dataDir, 'sandbox.db')}`);
console.log('  credentials (send as Authorization: Bearer <credential>):');
for (const c of describeCredentials()) console.log(`    ${c.credential}  ${c.role} (${c.description})`);
console.log(`  try: curl -H 'Authorization: Bearer cog_sandbox_admin' ${sandbox.url}/v3/enterprise/organizations`);
const shutdown = () => void sandbox.stop().then(() => process.exit(0));
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
