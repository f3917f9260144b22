/**
 * Issue 10: each attack that once worked against the console server, reproduced, with the rule that now
 * stops it. Against a deliberately hostile fake upstream, or the sandbox, over real HTTP.
 */
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitPermissionSetVersion } from '../api/git-permissions/set-diff';
import { type GitPermission } from '../api/git-permissions/resources';
import { MAX_FIELD_ERRORS } from '../api/problem';
import { startFakeUpstream } from '../test/fake-upstream';
import { ADMIN, rawRequest, startAuthConsole, startTestConsole, startTestSandbox, testConfig } from '../test/harness';
import { createConsoleServer } from './app';
import { CONSOLE_MAX_BODY_BYTES } from './console/problems';
import { createRevisionStore } from './console/git-permissions/store';
import { openConsoleStore } from './console/store';
import { createRedactor } from './redact';

const SECRET = 'cog_hardening_test_credential_5a4b3c2d';
const ORG = 'org-hostile';

const perm = (i: number, extra: Partial<GitPermission> = {}): GitPermission => ({
  git_permission_id: `perm-${i}`,
  git_connection_id: 'conn-1',
  repo_path: `acme/repo-${i}`,
  prefix_path: null,
  group_prefix: null,
  read_only: false,
  created_at: 1_700_000_000,
  ...extra,
});

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

let up: Awaited<ReturnType<typeof startFakeUpstream>>;
let c: Awaited<ReturnType<typeof startTestConsole>>;
let dataDir: string;
let lines: string[] = [];

beforeAll(async () => {
  up = await startFakeUpstream();
  dataDir = mkdtempSync(join(tmpdir(), 'console-hardening-'));
  // A real console server with its own data directory (to check file modes) and a log sink.
  const server = createConsoleServer({
    config: testConfig({ dataDir, upstreamTimeoutMs: 1_500, maxUpstreamConnections: 8, maxUpstreamPerClient: 2 }),
    upstream: { baseUrl: up.url, apiKey: SECRET },
    log: (l) => lines.push(l),
  });
  const { port } = await server.listen();
  c = {
    url: `http://127.0.0.1:${port}`,
    port,
    sandbox: undefined,
    api: undefined as never,
    close: () => server.close(),
  };
});
afterAll(async () => {
  await c.close();
  await up.close();
});

/** The fake upstream answers a git-permission list of `set` in one page, and `onWrite` for anything else. */
function serveSet(
  set: GitPermission[],
  onWrite?: (method: string, url: string, body: string) => ReturnType<typeof json>,
) {
  up.respondWith((r, res) => {
    if (r.method === 'GET' && r.url.includes('/git-providers/permissions')) {
      const a = json({ items: set, end_cursor: null, has_next_page: false });
      res.writeHead(a.status, a.headers).end(a.body);
      return;
    }
    const a = onWrite?.(r.method, r.url, r.body) ?? json({ status: 404, title: 'Not Found' }, 404);
    res.writeHead(a.status, a.headers).end(a.body);
  });
}

function consoleCall(method: string, path: string, body?: unknown) {
  return rawRequest(
    c.port,
    method,
    path,
    body === undefined ? {} : { 'content-type': 'application/json' },
    body === undefined ? undefined : JSON.stringify(body),
  );
}

describe('bounded input on /console', () => {
  it('answers 413 to a 30 MB body without reading it, and stays up', async () => {
    serveSet([]);
    const big = `{"base_version":"x","permissions":[${'{},'.repeat(10_000_000)}{}]}`;
    const t0 = Date.now();
    const res = await rawRequest(
      c.port,
      'PUT',
      `/console/git-permissions/orgs/${ORG}`,
      { 'content-type': 'application/json' },
      big,
    ).catch((err: NodeJS.ErrnoException) => ({
      status: err.code === 'EPIPE' || err.code === 'ECONNRESET' ? 413 : 0,
      text: '',
    }));
    expect(res.status).toBe(413);
    expect(Date.now() - t0).toBeLessThan(3_000);
    expect((await rawRequest(c.port, 'GET', '/console/health')).status).toBe(200);
  });

  it('answers 413 to a chunked body past the limit', async () => {
    const res = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: c.port,
          method: 'PUT',
          path: `/console/git-permissions/orgs/${ORG}`,
          headers: { host: `localhost:${c.port}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        },
        (r) => {
          r.resume();
          resolve(r.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      const chunk = 'x'.repeat(64 * 1024);
      let sent = 0;
      const pump = () => {
        while (sent <= CONSOLE_MAX_BODY_BYTES + 128 * 1024) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
    expect(res).toBe(413);
  });

  it('refuses 1 MiB of empty items in well under a second, with a bounded errors list', async () => {
    serveSet([]);
    const items = Math.floor((1_048_576 - 64) / 3);
    const body = `{"base_version":"x","permissions":[${'{},'.repeat(items - 1)}{}]}`;
    const heapBefore = process.memoryUsage().rss;
    const t0 = performance.now();
    const res = await rawRequest(
      c.port,
      'PUT',
      `/console/git-permissions/orgs/${ORG}`,
      { 'content-type': 'application/json' },
      body,
    );
    const ms = performance.now() - t0;
    expect(res.status).toBe(422);
    const problem = JSON.parse(res.text) as { errors: unknown[]; detail: string };
    expect(problem.errors.length).toBeLessThanOrEqual(MAX_FIELD_ERRORS);
    expect(res.text.length).toBeLessThan(20_000);
    expect(ms).toBeLessThan(1_000);
    expect(process.memoryUsage().rss - heapBefore).toBeLessThan(100 * 1_048_576);
  });

  it('validates a set at its limit item by item and still lists at most 100 errors', async () => {
    serveSet([]);
    const permissions = Array.from({ length: 5_000 }, () => ({ git_connection_id: '', repo_path: 'bad path' }));
    const t0 = performance.now();
    const res = await consoleCall('PUT', `/console/git-permissions/orgs/${ORG}`, {
      base_version: 'x',
      permissions,
      allow_per_item: true,
    });
    expect(res.status).toBe(422);
    expect(performance.now() - t0).toBeLessThan(1_000);
    const problem = JSON.parse(res.text) as { errors: Array<{ type: string }> };
    expect(problem.errors).toHaveLength(MAX_FIELD_ERRORS);
    expect(problem.errors.at(-1)!.type).toBe('too_many_errors');
  });

  it('refuses a set over the console limit and documents deep nesting as an error, not a crash', async () => {
    const over = await consoleCall('PUT', `/console/git-permissions/orgs/${ORG}`, {
      base_version: 'x',
      permissions: Array.from({ length: 5_001 }, (_, i) => ({ git_connection_id: 'c', repo_path: `a/r${i}` })),
      allow_per_item: true,
    });
    expect(over.status).toBe(422);
    expect(over.text).toMatch(/at most 5000/);
    const deep = await rawRequest(
      c.port,
      'PUT',
      `/console/git-permissions/orgs/${ORG}`,
      { 'content-type': 'application/json' },
      `{"base_version":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
    );
    expect(deep.status).toBe(422);
  });
});

describe('the credential never leaves the server, whatever the encoding', () => {
  const echo = (encode: (s: string) => string, contentEncoding?: string) =>
    up.respondWith((r, res) => {
      // Written as JSON text by hand, so a `\u0063…` copy reaches the browser as JSON escapes of the credential.
      const text = `{"echoed":"${encode(String(r.headers.authorization).slice('Bearer '.length))}"}`;
      if (contentEncoding === 'gzip') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync(text));
      } else {
        res.writeHead(200, { 'content-type': 'application/json' }).end(text);
      }
    });

  it.each([
    ['gzip-encoded', (s: string) => s, 'gzip'],
    ['base64', (s: string) => Buffer.from(s).toString('base64'), undefined],
    ['base64 inside a longer text', (s: string) => Buffer.from(`user:${s}`).toString('base64'), undefined],
    ['base64url', (s: string) => Buffer.from(`xy${s}`).toString('base64url'), undefined],
    [
      '\\u-escaped',
      (s: string) => [...s].map((ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
      undefined,
    ],
    ['percent-encoded', (s: string) => encodeURIComponent(s).replace(/_/g, '%5F'), undefined],
  ] as const)('redacts a %s copy in a proxied answer', async (_name, encode, enc) => {
    echo(encode, enc);
    const res = await rawRequest(c.port, 'GET', '/api/v3/self', { 'accept-encoding': 'gzip' });
    expect(res.status).toBe(200);
    // The upstream's encoding reaches the browser unchanged (see proxy/stream.test.ts for every coding).
    expect(res.headers['content-encoding']).toBe(enc);
    const text = enc === 'gzip' ? gunzipSync(res.bytes).toString() : res.text;
    expect(text).toContain('[redacted]');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(Buffer.from(SECRET).toString('base64').slice(4, 30));
  });

  it('redacts every encoding in the redactor, and leaves other text alone', () => {
    const r = createRedactor([SECRET]);
    expect(r.redact('nothing here')).toBe('nothing here');
    expect(r.redact(Buffer.from(SECRET).toString('hex'))).toBe('[redacted]');
    expect(r.redact(`${SECRET.slice(0, 3)}\\x5f${SECRET.slice(4)}`)).toBe('[redacted]');
  });

  it('keeps it out of /console problem bodies, stored errors and the history', async () => {
    serveSet([perm(1)], (method) =>
      method === 'PUT'
        ? json(
            {
              status: 400,
              title: 'Bad Request',
              detail: `refused for Bearer ${SECRET} (${Buffer.from(SECRET).toString('base64')})`,
            },
            400,
          )
        : json({}, 404),
    );
    const res = await consoleCall('PUT', `/console/git-permissions/orgs/${ORG}`, {
      base_version: gitPermissionSetVersion([perm(1)]),
      permissions: [{ git_connection_id: 'conn-1', repo_path: 'acme/other' }],
    });
    expect(res.status).toBe(400);
    expect(res.text).not.toContain(SECRET);
    expect(res.text).toContain('[redacted]');
    const history = await consoleCall('GET', `/console/git-permissions/orgs/${ORG}/revisions`);
    const failed = (
      JSON.parse(history.text) as { items: Array<{ revision_id: number; status: string; error: string }> }
    ).items[0]!;
    expect(failed.status).toBe('failed');
    expect(failed.error).toContain('[redacted]');
    const detail = await consoleCall('GET', `/console/git-permissions/orgs/${ORG}/revisions/${failed.revision_id}`);
    expect(detail.text).not.toContain(SECRET);
    expect(history.text).not.toContain(Buffer.from(SECRET).toString('base64').slice(0, 20));
  });

  it('keeps the data directory 0700 and its files 0600', () => {
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    const files = readdirSync(dataDir);
    expect(files).toContain('console.db');
    for (const f of files) expect(statSync(join(dataDir, f)).mode & 0o777, f).toBe(0o600);
  });

  it('logs one line per request (method, path, status, duration), nothing from bodies', async () => {
    up.respondWith((_r, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('<html>SNIPPET-OF-UPSTREAM-BODY'),
    );
    lines = [];
    const res = await consoleCall('GET', `/console/git-permissions/orgs/${ORG}`);
    expect(res.status).toBe(502);
    expect(res.text).not.toContain('SNIPPET');
    await new Promise((r) => setTimeout(r, 20));
    expect(lines).toEqual([expect.stringMatching(/^GET \/console\/git-permissions\/orgs\/org-hostile 502 \d+\.\dms$/)]);
  });
});

describe("the console's upstream client is bounded", () => {
  it('stops an endless cursor after its page cap', async () => {
    let calls = 0;
    up.respondWith((_r, res) => {
      calls++;
      const a = json({ items: [perm(calls)], end_cursor: `c${calls}`, has_next_page: true });
      res.writeHead(a.status, a.headers).end(a.body);
    });
    const res = await consoleCall('GET', `/console/git-permissions/orgs/${ORG}`);
    expect(res.status).toBe(502);
    expect(res.text).toMatch(/more pages/);
    expect(calls).toBeLessThanOrEqual(100);
  });

  it('stops at a repeated cursor', async () => {
    let calls = 0;
    up.respondWith((_r, res) => {
      calls++;
      const a = json({ items: [perm(calls)], end_cursor: 'same', has_next_page: true });
      res.writeHead(a.status, a.headers).end(a.body);
    });
    const res = await consoleCall('GET', `/console/git-permissions/orgs/${ORG}`);
    expect(res.status).toBe(502);
    expect(res.text).toMatch(/repeated a cursor/);
    expect(calls).toBe(2);
  });

  it('stops past the item cap', async () => {
    let calls = 0;
    up.respondWith((_r, res) => {
      calls++;
      const items = Array.from({ length: 200 }, (_, i) => perm(calls * 1000 + i));
      const a = json({ items, end_cursor: `c${calls}`, has_next_page: true });
      res.writeHead(a.status, a.headers).end(a.body);
    });
    const res = await consoleCall('GET', `/console/git-permissions/orgs/${ORG}`);
    expect(res.status).toBe(502);
    expect(res.text).toMatch(/more than 5000 items/);
    expect(calls).toBeLessThanOrEqual(26);
  });

  it('stops reading an oversized answer', async () => {
    up.respondWith((_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1_048_576, 0x20);
      let n = 0;
      const pump = () => {
        while (n++ < 64) if (!res.write(chunk)) return void res.once('drain', pump);
        res.end();
      };
      res.on('error', () => undefined);
      pump();
    });
    const res = await consoleCall('GET', `/console/git-permissions/orgs/${ORG}`);
    expect(res.status).toBe(502);
    expect(res.text).toMatch(/more than \d+ bytes/);
  });

  it('stops calling the upstream once the browser has gone', async () => {
    let calls = 0;
    up.respondWith((_r, res) => {
      calls++;
      setTimeout(() => {
        const a = json({ items: [perm(calls)], end_cursor: `c${calls}`, has_next_page: true });
        res.writeHead(a.status, a.headers).end(a.body);
      }, 30);
    });
    await new Promise<void>((resolve) => {
      const req = httpRequest({
        host: '127.0.0.1',
        port: c.port,
        path: `/console/git-permissions/orgs/${ORG}`,
        headers: { host: `localhost:${c.port}` },
      });
      req.on('error', () => resolve());
      req.end();
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 150);
    });
    await new Promise((r) => setTimeout(r, 100));
    const after = calls;
    await new Promise((r) => setTimeout(r, 300));
    expect(calls).toBe(after);
    expect(calls).toBeLessThan(10);
  });

  it('never follows a redirect to another origin', async () => {
    const elsewhere = await startFakeUpstream((_r, res) => {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ items: [], end_cursor: null, has_next_page: false }));
    });
    try {
      up.respondWith((_r, res) => res.writeHead(307, { location: `${elsewhere.url}/steal` }).end());
      const res = await consoleCall('GET', `/console/git-permissions/orgs/${ORG}`);
      expect(res.status).toBe(502);
      expect(res.text).toMatch(/redirect/);
      expect(elsewhere.received).toHaveLength(0);
    } finally {
      await elsewhere.close();
    }
  });
});

describe('one lock for every change to a set', () => {
  it('a read-only toggle racing a bulk replace is never silently reverted, and history records it', async () => {
    const sandbox = await startTestSandbox();
    const con = await startTestConsole({ upstream: { baseUrl: sandbox.url, apiKey: ADMIN } });
    try {
      const orgs = await sandbox.api.get<{ items: Array<{ org_id: string }> }>('/v3/enterprise/organizations');
      const org = orgs.body.items[1]!.org_id;
      for (let round = 0; round < 8; round++) {
        const set = await con.api.get<{ items: GitPermission[]; version: string }>(
          `/console/git-permissions/orgs/${org}`,
        );
        const target = set.body.items[0]!;
        const toggledTo = !target.read_only;
        // The bulk replace keeps the set as the admin loaded it, adding one permission.
        const replacement = [
          ...set.body.items.map((p) => ({
            git_connection_id: p.git_connection_id,
            repo_path: p.repo_path,
            prefix_path: p.prefix_path,
            group_prefix: p.group_prefix,
            read_only: p.read_only,
          })),
        ];
        const [toggle, replace] = await Promise.all([
          con.api.call('PATCH', `/console/git-permissions/orgs/${org}/permissions/${target.git_permission_id}`, {
            body: { read_only: toggledTo, base_version: set.body.version },
          }),
          con.api.call('PUT', `/console/git-permissions/orgs/${org}`, {
            body: { base_version: set.body.version, permissions: replacement.slice(0, -1) },
          }),
        ]);
        // The lock serializes them: whichever runs second finds the set changed and gets 409.
        expect([toggle.status, replace.status].sort()).toEqual([200, 409]);
        const now = await con.api.get<{ items: GitPermission[] }>(`/console/git-permissions/orgs/${org}`);
        const still = now.body.items.find(
          (p) =>
            p.repo_path === target.repo_path &&
            p.prefix_path === target.prefix_path &&
            p.group_prefix === target.group_prefix,
        );
        if (toggle.status === 200) expect(still?.read_only).toBe(toggledTo);
      }
      const history = await con.api.get<{ items: Array<{ action: string; status: string }> }>(
        `/console/git-permissions/orgs/${org}/revisions?first=50`,
      );
      expect(history.body.items.some((r) => r.action === 'update' && r.status === 'applied')).toBe(true);
    } finally {
      await con.close();
      await sandbox.stop();
    }
  });

  it('a toggle of an unknown permission answers 404 and changes nothing', async () => {
    serveSet([perm(1)], () => {
      throw new Error('no write may reach the upstream');
    });
    const res = await consoleCall('PATCH', `/console/git-permissions/orgs/${ORG}/permissions/perm-404`, {
      read_only: true,
    });
    expect(res.status).toBe(404);
    expect(up.received.at(-1)!.method).toBe('GET');
  });
});

describe('fair under load', () => {
  it("one signed-in client's hanging calls do not make another client wait", async () => {
    up.respondWith((r, res) => {
      if (r.url.includes('hang')) return; // never answers
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    const con = await startAuthConsole({
      upstream: { baseUrl: up.url, apiKey: SECRET },
      config: { upstreamTimeoutMs: 1_500, maxUpstreamConnections: 8, maxUpstreamPerClient: 2 },
    });
    try {
      const [a, b] = [await con.signIn(), await con.signIn()];
      // Client A: 64 hanging calls; its share is 2 connections of 8, the rest wait in its own queue.
      const hanging = Array.from({ length: 64 }, () => rawRequest(con.port, 'GET', '/api/v3/hang', { cookie: a }));
      await new Promise((r) => setTimeout(r, 100));
      const t0 = Date.now();
      const other = await rawRequest(con.port, 'GET', '/api/v3/self', { cookie: b });
      expect(other.status).toBe(200);
      expect(Date.now() - t0).toBeLessThan(300);
      // A planted cookie beside A's own session does not make A a new client with a fresh share: the call
      // waits its turn behind A's hanging calls (until they time out), where B's answered at once.
      const t1 = Date.now();
      await rawRequest(con.port, 'GET', '/api/v3/self', { cookie: `console_session=planted; ${a}` });
      expect(Date.now() - t1).toBeGreaterThan(1_000);
      const results = await Promise.all(hanging);
      expect(results.every((r) => r.status === 504 || r.status === 429)).toBe(true);
    } finally {
      await con.close();
    }
  });
});

describe('the sandbox checks Host', () => {
  it('refuses a rebinding page (foreign Host) and answers its own names', async () => {
    const sandbox = await startTestSandbox();
    try {
      const foreign = await rawRequest(sandbox.port, 'GET', '/v3/enterprise/organizations', {
        host: `evil.example:${sandbox.port}`,
        authorization: `Bearer ${ADMIN}`,
      });
      expect(foreign.status).toBe(403);
      expect(JSON.parse(foreign.text)).toMatchObject({ status: 403 });
      const own = await rawRequest(sandbox.port, 'GET', '/v3/enterprise/organizations', {
        authorization: `Bearer ${ADMIN}`,
      });
      expect(own.status).toBe(200);
    } finally {
      await sandbox.stop();
    }
  });
});

describe('paths', () => {
  it.each([
    '/api/v3/self;x',
    '/api/v3/..;/x',
    '/api/v3/enterprise;/organizations',
    '/api/v3/%c0%ae%c0%ae/x',
    '/api/v3/%ff',
    '/api/v3/%e0%80%ae',
  ])('refuses %s before forwarding', async (target) => {
    up.respondWith((_r, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    // (Not counting the fair-load test's hanging calls: one of them may still reach the upstream after its 504.)
    const reached = () => up.received.filter((r) => !r.url.includes('hang')).length;
    const before = reached();
    const res = await rawRequest(c.port, 'GET', target);
    expect(res.status).toBe(404);
    expect(reached()).toBe(before);
  });
});

describe('proxied answers', () => {
  it('carry nosniff and a sandboxing CSP, so an upstream text/html page cannot run script', async () => {
    up.respondWith((_r, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<script>alert(1)</script>'));
    const res = await rawRequest(c.port, 'GET', '/api/v3/self');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toMatch(/^sandbox/);
  });
});

describe('history retention', () => {
  it('keeps at most the configured count and age per organization, oldest first, never the latest', async () => {
    const db = openConsoleStore(':memory:');
    let clock = 1_000_000_000;
    const store = createRevisionStore(db, { maxRevisions: 3, maxAgeDays: 30 }, () => clock);
    const change = async (org: string) => {
      const id = await store.begin({
        org_id: org,
        action: 'replace',
        method: 'replace',
        restored_from: null,
        previous: [perm(1)],
        previous_version: 'v',
        added: 1,
        removed: 0,
        changed: 0,
      });
      await store.finish(org, id, { status: 'applied', result: [perm(2)], result_version: 'w' });
      return id;
    };
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push(await change('org-a'));
    await change('org-b');
    expect((await store.list('org-a', { first: 50 })).items.map((r) => r.revision_id)).toEqual(ids.slice(2).reverse());
    expect((await store.list('org-b', { first: 50 })).total).toBe(1);
    // 31 days later, one more change: the older ones go by age, the new latest stays.
    clock += 31 * 86_400;
    const latest = await change('org-a');
    expect((await store.list('org-a', { first: 50 })).items.map((r) => r.revision_id)).toEqual([latest]);
    // Age alone never removes an organization's latest revision.
    clock += 365 * 86_400;
    await store.prune('org-b');
    expect((await store.list('org-b', { first: 50 })).total).toBe(1);
    db.close();
  });
});

describe('issue 26: one token from many addresses, and trickling uploads', () => {
  const TOKEN = 'hardening-access-token-0123456789';
  /** A request from a chosen loopback address (Linux routes all of 127.0.0.0/8 to this host). */
  const from = (
    port: number,
    localAddress: string,
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: Buffer | string,
  ) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, method, path, localAddress, headers: { host: `localhost:${port}`, ...headers } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
        },
      );
      req.on('error', (err) => (String(err).includes('ECONNRESET') ? undefined : reject(err)));
      req.end(body);
    });

  it("five addresses of one token cannot starve another admin's call", async () => {
    const held: Array<() => void> = [];
    let hang = true;
    const up = await startFakeUpstream((r, res) => {
      if (hang && r.url.startsWith('/v3/slow')) held.push(() => res.writeHead(200).end('{}'));
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    const c = await startAuthConsole({
      upstream: { baseUrl: up.url, apiKey: SECRET },
      config: { accessToken: TOKEN, maxUpstreamConnections: 6, maxUpstreamPerClient: 2, upstreamTimeoutMs: 1_500 },
    });
    try {
      const admin = await c.signIn();
      const bearer = { authorization: `Bearer ${TOKEN}` };
      const script = Array.from({ length: 5 }, (_, a) =>
        Array.from({ length: 4 }, () => from(c.port, `127.0.0.${a + 2}`, 'GET', '/api/v3/slow', bearer)),
      ).flat();
      await new Promise((r) => setTimeout(r, 100));
      // One token, one client: at most its share of the connections, whatever addresses it uses.
      expect(held.length).toBeLessThanOrEqual(2);
      const started = Date.now();
      const other = await rawRequest(c.port, 'GET', '/api/v3/self', { cookie: admin });
      expect(other.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(500);
      hang = false;
      held.splice(0).forEach((answer) => answer());
      const statuses = await Promise.all(script);
      expect(statuses.every((s) => [200, 429, 504].includes(s.status))).toBe(true);
    } finally {
      held.splice(0).forEach((answer) => answer());
      await c.close();
      await up.close();
    }
  });

  it('cuts an upload that trickles below the minimum rate with a 408 problem, freeing its connection', async () => {
    const up = await startFakeUpstream();
    const server = createConsoleServer({
      config: testConfig(),
      upstream: { baseUrl: up.url, apiKey: SECRET },
      minUploadRate: { bytesPerSecond: 1_000, windowMs: 150 },
    });
    const { port } = await server.listen();
    try {
      const boundary = 'trickle-0123';
      let drip: NodeJS.Timeout | undefined;
      const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/api/v3/organizations/org-1/attachments',
            headers: {
              host: `localhost:${port}`,
              origin: `http://localhost:${port}`,
              'content-type': `multipart/form-data; boundary=${boundary}`,
              'content-length': '100000',
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (ch: Buffer) => chunks.push(ch));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
          },
        );
        req.on('error', (err) => (String(err).includes('EPIPE') ? undefined : reject(err)));
        req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n\r\n`);
        // A byte every 50 ms: each one would refresh the call's timeout, but the rate is far too low.
        drip = setInterval(() => (req.destroyed ? clearInterval(drip) : req.write('x')), 50);
      });
      const res = await answer.finally(() => clearInterval(drip));
      expect(res.status).toBe(408);
      expect(JSON.parse(res.text)).toMatchObject({ status: 408 });
      expect(res.text).toContain('too slowly');
    } finally {
      await server.close();
      await up.close();
    }
  });
});
