/**
 * `npm run config` against an in-process console on the sandbox: plan's exit status (0 no changes, 2 changes,
 * 1 errors, each with file:line), apply of a saved plan with a secret from the environment that no output
 * shows, and the message that says how to start a console when none answers.
 */
import { once } from 'node:events';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestConsole } from '../test/harness';
import { runConfigCli } from './config';

let con: Awaited<ReturnType<typeof startTestConsole>>;
let dir: string;
const SECRET = 'cli-secret-value-0815';

async function cli(argv: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runConfigCli({
    argv,
    env: { CONSOLE_URL: con.url, ...env },
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    pollMs: 50,
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

beforeAll(async () => {
  con = await startTestConsole({ sandbox: { tickMs: 60_000 } });
  dir = await mkdtemp(join(tmpdir(), 'config-cli-'));
});
afterAll(async () => {
  await con?.close();
});

describe('npm run config', () => {
  it('plans with exit status 0, 2 or 1, and applies a saved plan with a secret from the environment', async () => {
    const same = join(dir, 'same.yaml');
    await writeFile(same, 'version: 1\norganizations:\n  - name: Platform Engineering\n    acu_limit: 25000\n');
    expect(await cli(['plan', same])).toMatchObject({ code: 0, out: expect.stringContaining('no changes') });

    const doc = join(dir, 'enterprise.yaml');
    await writeFile(
      doc,
      'version: 1\norganizations:\n  - name: Platform Engineering\n    acu_limit: 30000\n    secrets:\n      - key: CLI_TOKEN\n        type: key-value\n        value_from_env: CLI_TOKEN\n',
    );
    const planFile = join(dir, 'plan.json');
    const planned = await cli(['plan', doc, '--out', planFile]);
    expect(planned.code).toBe(2);
    expect(planned.out).toContain('Change acu limit of Platform Engineering');
    expect(planned.out).toContain('Create the key-value secret CLI_TOKEN');

    const withoutValue = await cli(['apply', planFile]);
    expect(withoutValue).toMatchObject({ code: 1, err: expect.stringContaining('set CLI_TOKEN') });
    const applied = await cli(['apply', planFile], { CLI_TOKEN: SECRET });
    expect(applied.code, applied.err).toBe(0);
    expect(applied.out).toMatch(/Applied 2 changes/);
    expect(await cli(['plan', doc])).toMatchObject({ code: 0 });
    for (const text of [planned.out, planned.err, applied.out, applied.err, await readFile(planFile, 'utf8')]) {
      expect(text).not.toContain(SECRET);
    }

    const bad = join(dir, 'bad.yaml');
    await writeFile(bad, 'version: 1\norganizations:\n  - name: Platform Engineering\n    acu_limit: lots\n');
    const failed = await cli(['plan', bad]);
    expect(failed.code).toBe(1);
    expect(failed.err).toContain('bad.yaml:4:16: organizations[0].acu_limit:');
  });

  it('says how to start a console when none answers', async () => {
    // A port nothing listens on: one just freed.
    const server = createServer().listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    await new Promise((r) => server.close(r));
    const res = await runConfigCli({
      argv: ['export'],
      env: { CONSOLE_URL: `http://127.0.0.1:${port}` },
      out: () => undefined,
      err: (t) =>
        expect(t).toMatch(new RegExp(`No console answers at http://127\\.0\\.0\\.1:${port}\\. Start one .*npm start`)),
    });
    expect(res).toBe(1);
  });
});
