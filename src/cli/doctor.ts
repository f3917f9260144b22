/**
 * `npm run doctor`: checks the configured upstream (AGENT_PLATFORM_BASE_URL with AGENT_PLATFORM_API_KEY), or, when
 * neither is set, the sandbox already serving SANDBOX_PORT, or an embedded sandbox started in-process (on
 * SANDBOX_PORT when set, else on an ephemeral loopback port), and prints one table
 * per section with its verdict (`--json`: the report as JSON). Exit status: 0 when the credential works (even
 * with refusals or defects), 1 when it does not work at all (unreachable, refused, nothing allowed), 2 for a
 * configuration or usage error. The credential is never printed.
 *
 *   npm run doctor
 *   npm run doctor -- --json
 *   npm run doctor -- --sandbox-credential viewer   (no upstream configured: try the sandbox's read-only key)
 */
import { SANDBOX_CREDENTIALS, startSandbox, type RunningSandbox } from '../sandbox';
import { envReader } from '../node/env';
import { runDoctor } from '../server/console/doctor/engine';
import { createRedactor } from '../server/redact';
import { connect } from 'node:net';
import { DEFAULT_WIDTH, formatReport } from './doctor-format';

const USAGE = `Usage: npm run doctor -- [--json] [--sandbox-credential admin|viewer]

Checks AGENT_PLATFORM_BASE_URL with AGENT_PLATFORM_API_KEY (from the environment or .env), or, when neither is
set, the sandbox serving SANDBOX_PORT (a fresh in-memory one, on SANDBOX_PORT when set, if none runs there):
reach, identity, what the credential may do, conformance, rate limiting. Tables fit the terminal (piped: COLUMNS,
default 100 characters).
Exit status: 0 the credential works, 1 it does not work at all, 2 configuration or usage error.`;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
const json = args.includes('--json');
let sandboxRole: keyof typeof SANDBOX_CREDENTIALS = 'admin';
for (let i = 0; i < args.length; i++) {
  const a = args[i]!;
  if (a === '--json') continue;
  if (a === '--sandbox-credential' || a.startsWith('--sandbox-credential=')) {
    const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : args[++i];
    if (v !== 'admin' && v !== 'viewer') fail(`--sandbox-credential takes admin or viewer (got ${v ?? 'nothing'})`);
    sandboxRole = v;
    continue;
  }
  fail(`Unknown argument ${a}\n\n${USAGE}`);
}

const env = envReader(process.env);
const apiKey = env.get('AGENT_PLATFORM_API_KEY');
const baseUrl = env.get('AGENT_PLATFORM_BASE_URL');
const timeoutMs = env.int('UPSTREAM_TIMEOUT_MS', 15_000, 100, 600_000);
// Unset: any free port (0). The sandbox's own setting, as `npm run sandbox` and `npm start` read it.
const sandboxPort = env.get('SANDBOX_PORT') === undefined ? 0 : env.int('SANDBOX_PORT', 0, 0, 65535);
const columns = Math.min(1000, Math.max(40, Number(env.get('COLUMNS')) || DEFAULT_WIDTH));
if (env.problems.length) fail(env.problems.join('\n'));
if (apiKey && !baseUrl)
  fail('AGENT_PLATFORM_BASE_URL is missing: set it with AGENT_PLATFORM_API_KEY, or unset both to check the sandbox');
if (baseUrl && !apiKey) {
  // Still worth a run: reach is checked, and the identity section says the credential is missing.
  console.error('AGENT_PLATFORM_API_KEY is not set: only reach can be checked.');
}
if (baseUrl && args.some((a) => a.startsWith('--sandbox-credential'))) {
  fail('--sandbox-credential applies to the embedded sandbox only; AGENT_PLATFORM_BASE_URL is set');
}

/** Whether something accepts connections on this loopback port (within a second). */
function listening(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ host: '127.0.0.1', port, timeout: 1000 });
    const end = (open: boolean) => {
      socket.destroy();
      done(open);
    };
    socket.once('connect', () => end(true));
    socket.once('timeout', () => end(false));
    socket.once('error', () => end(false));
  });
}

let sandbox: RunningSandbox | undefined;
let target: { baseUrl: string; apiKey: string | undefined; mode: 'sandbox' | 'upstream' };
if (baseUrl) {
  target = { baseUrl: baseUrl.replace(/\/+$/, ''), apiKey, mode: 'upstream' };
} else if (sandboxPort !== 0 && (await listening(sandboxPort))) {
  // SANDBOX_PORT names a port something already serves (`npm run sandbox`, or the sandbox `npm start` embeds):
  // that sandbox, with its own data, is the one checked.
  if (!json) console.error(`Checking the sandbox running on SANDBOX_PORT=${sandboxPort}.`);
  target = { baseUrl: `http://127.0.0.1:${sandboxPort}`, apiKey: SANDBOX_CREDENTIALS[sandboxRole], mode: 'sandbox' };
} else {
  // A fresh in-memory sandbox, like the one `npm start` embeds: on SANDBOX_PORT when it is set, else any free port.
  sandbox = await startSandbox({ dbPath: ':memory:', host: '127.0.0.1', port: sandboxPort }).catch((err: unknown) =>
    fail(`The sandbox could not start on SANDBOX_PORT=${sandboxPort}: ${err instanceof Error ? err.message : err}`),
  );
  target = { baseUrl: sandbox.url, apiKey: SANDBOX_CREDENTIALS[sandboxRole], mode: 'sandbox' };
}

const interactive = !json && process.stderr.isTTY;
const report = await runDoctor({
  ...target,
  timeoutMs,
  secrets: [env.get('CONSOLE_ACCESS_TOKEN')],
  onProgress: interactive
    ? (p) => {
        if (p.current) process.stderr.write(`\r\u001b[2K  checking ${p.current} (${p.done + 1}/${p.total})`);
      }
    : undefined,
}).finally(() => sandbox?.stop());
if (interactive) process.stderr.write('\r\u001b[2K');

// The report carries the per-screen section (`screens`): the engine marks the console's screens itself.
const redactor = createRedactor([target.apiKey, env.get('CONSOLE_ACCESS_TOKEN')]);
const text = json
  ? JSON.stringify(report, null, 2)
  : formatReport(report, {
      color: process.stdout.isTTY === true && !process.env.NO_COLOR,
      // The terminal's width; piped, COLUMNS or 100: every line, and every table rule, fits it.
      width: (process.stdout.isTTY && process.stdout.columns) || columns,
    });
// The report is redacted already; the output once more, whatever it holds.
process.stdout.write(`${redactor.redact(text)}\n`);
process.exitCode = report.credential_works ? 0 : 1;
