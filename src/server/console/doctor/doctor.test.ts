/**
 * The doctor against real upstreams over HTTP: the sandbox (in-process, ':memory:') with the admin and the viewer
 * credential, a deliberately non-conforming fake upstream, and the console's `/console/doctor` endpoints. Every
 * upstream here fails the test if it receives anything but GET. The runs keep their pace (5 requests a second) on
 * a virtual clock, so a walk of the whole table takes no longer than its requests do.
 */
import { serve, type ServerType } from '@hono/node-server';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DoctorReport, DoctorState, DoctorSummary } from '../../../api/console/doctor';
import { CONSOLE_SCREENS, screenChecks } from '../../../api/console/doctor';
import { operationList } from '../../../api/operations';
import { PERMISSIONS, READ_PERMISSIONS } from '../../../api/permissions';
import { createSandbox, SANDBOX_CREDENTIALS, type Sandbox } from '../../../sandbox';
import { startTestConsole } from '../../../test/harness';
import { createRedactor } from '../../redact';
import type { SettingsStore } from '../storage/settings';
import { explainUnauthorized, runDoctor, type DoctorOptions } from './engine';
import { doctorHandlers } from './index';
import { virtualClock } from './pace';

/** runDoctor on a virtual clock. */
const run = (opts: DoctorOptions) => runDoctor({ clock: virtualClock(), ...opts });

const GET_OPS = operationList.filter((op) => op.method === 'GET');
const NO_ID = /^skipped: no \w+ to try$/;

/** The sandbox behind a node server that records every method it receives (only GET may come). */
async function serveSandbox(): Promise<{ url: string; sandbox: Sandbox; methods: string[]; close(): Promise<void> }> {
  const sandbox = createSandbox({ dbPath: ':memory:', validateResponses: true });
  const methods: string[] = [];
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve(
      {
        fetch: (req, env) => {
          methods.push(req.method);
          return sandbox.fetch(req, env);
        },
        port: 0,
        hostname: '127.0.0.1',
      },
      () => resolve(s),
    );
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    sandbox,
    methods,
    close: () =>
      new Promise<void>((resolve) => {
        (server as unknown as { closeAllConnections(): void }).closeAllConnections();
        server.close(() => {
          sandbox.close();
          resolve();
        });
      }),
  };
}

let sb: Awaited<ReturnType<typeof serveSandbox>>;
beforeAll(async () => {
  sb = await serveSandbox();
}, 120_000);
afterAll(() => sb?.close());

describe('doctor against the sandbox', () => {
  let admin: DoctorReport;
  let viewer: DoctorReport;
  beforeAll(async () => {
    admin = await run({ baseUrl: sb.url, apiKey: SANDBOX_CREDENTIALS.admin, mode: 'sandbox' });
    viewer = await run({ baseUrl: sb.url, apiKey: SANDBOX_CREDENTIALS.viewer, mode: 'sandbox' });
  }, 120_000);

  it('with the admin credential: reachable, identified, everything allowed and conforming', () => {
    expect(admin.credential_works).toBe(true);
    expect(admin.verdict.level).toBe('ok');
    expect(admin.reach.verdict.level).toBe('ok');
    expect(admin.reach.loopback).toBe(true);
    expect(admin.reach.rtt_ms).toBeGreaterThan(0);
    expect(admin.identity.self).toBe('present');
    expect(admin.identity.credential_form).toBe('cog');
    expect(admin.identity.principal?.service_user_id).toBe('service-user-sandbox-admin');
    // Every GET operation of the table, whatever it holds, is in the report once.
    expect(admin.operations.items.map((i) => i.id).sort()).toEqual(GET_OPS.map((o) => o.id).sort());
    for (const item of admin.operations.items) {
      if (item.outcome === 'skipped') expect(item.detail, item.id).toMatch(NO_ID);
      else expect(item.outcome, `${item.id}: ${item.detail}`).toBe('allowed');
    }
    expect(admin.operations.counts.refused).toBe(0);
    expect(admin.operations.counts.failed).toBe(0);
    expect(admin.operations.counts.not_present).toBe(0);
    // Ids come from earlier answers: the first organization's sessions, that session's messages.
    expect(admin.operations.items.find((i) => i.id === 'sessions.messages.list')?.outcome).toBe('allowed');
    expect(admin.operations.items.find((i) => i.id === 'organizations.list')?.request).toBe(
      '/v3/enterprise/organizations?first=1',
    );
    expect(admin.conformance.issues).toEqual([]);
    expect(admin.conformance.not_published).toEqual([]);
    // Every screen whose read was tried works, with all it relies on.
    expect(admin.screens?.map((c) => c.label)).toEqual(CONSOLE_SCREENS.map((c) => c.label));
    for (const c of admin.screens ?? []) expect(['yes', 'unknown'], `${c.label}: ${c.why}`).toContain(c.works);
    // Operations with alternates: the path each was answered at.
    for (const p of admin.operations.paths ?? []) expect(p.served_path, p.line).not.toBeNull();
    expect(admin.rate_limit.max_per_second).toBeLessThanOrEqual(5);
    expect(admin.conformance.checked).toBe(admin.operations.counts.allowed);
    expect(admin.conformance.conforming).toBe(admin.conformance.checked);
    expect(admin.rate_limit.responses_429).toBe(0);
    expect(admin.rate_limit.retry_after_seen).toBe(false);
    expect(JSON.stringify(admin)).not.toContain(SANDBOX_CREDENTIALS.admin);
  });

  it('with the viewer credential: refused are exactly the operations whose permission it lacks, each named', () => {
    expect(viewer.credential_works).toBe(true);
    expect(viewer.verdict.level).toBe('warn');
    const held = new Set<string>([...READ_PERMISSIONS, 'AnyCredential']);
    const lacking = GET_OPS.filter((op) => !held.has(op.permission)).map((op) => op.id);
    const refused = viewer.operations.items.filter((i) => i.outcome === 'refused');
    for (const r of refused) {
      expect(held.has(r.permission), r.id).toBe(false);
      expect(r.refused_permission, r.id).toBe(r.permission);
      expect(r.status).toBe(403);
    }
    // An operation it lacks is refused, or skipped only because the list that gives its ids was refused.
    const skipped = viewer.operations.items.filter((i) => i.outcome === 'skipped');
    for (const s of skipped) expect(s.detail, s.id).toMatch(NO_ID);
    const skippedByAdmin = new Set(admin.operations.items.filter((i) => i.outcome === 'skipped').map((i) => i.id));
    expect(refused.map((r) => r.id).sort()).toEqual(lacking.filter((id) => !skipped.some((s) => s.id === id)).sort());
    for (const s of skipped) expect(lacking.includes(s.id) || skippedByAdmin.has(s.id), s.id).toBe(true);
    // Everything it holds is allowed.
    for (const item of viewer.operations.items) {
      if (held.has(item.permission) && item.outcome !== 'skipped') expect(item.outcome, item.id).toBe('allowed');
    }
    expect(refused.length).toBeGreaterThan(5);
    expect(viewer.operations.verdict.line).toContain('refused');
    for (const p of new Set(refused.map((r) => r.permission))) expect(viewer.operations.verdict.line).toContain(p);
    expect(viewer.conformance.issues).toEqual([]);
  });

  it('marks each screen with what it needs and whether it will work', () => {
    const screens = [
      {
        section: 'Enterprise',
        label: 'Organizations',
        to: '/',
        permission: 'ViewAccountOrganizations',
        operation: 'organizations.list',
      },
      {
        section: 'Enterprise',
        label: 'Git connections',
        to: '/git-connections',
        permission: 'ManageGitIntegrations',
        operation: 'gitConnections.list',
      },
      {
        section: 'Enterprise',
        label: 'Nowhere',
        to: '/nowhere',
        permission: 'ViewAccountOrganizations',
        operation: 'nowhere.list',
      },
    ];
    const checks = screenChecks(viewer.operations.items, screens);
    expect(checks.map((c) => c.works)).toEqual(['yes', 'no', 'unknown']);
    expect(checks[1]!.why).toBe('refused: needs ManageGitIntegrations');
    expect(
      screenChecks(admin.operations.items, screens)
        .slice(0, 2)
        .map((c) => c.works),
    ).toEqual(['yes', 'yes']);
  });

  it('never sends a write', () => {
    expect(sb.methods.length).toBeGreaterThan(GET_OPS.length);
    expect(new Set(sb.methods)).toEqual(new Set(['GET']));
  });

  it('explains a 401: unknown credential, refused by the IP access list', async () => {
    const wrong = await run({ baseUrl: sb.url, apiKey: 'cog_not_a_real_one', mode: 'sandbox' });
    expect(wrong.credential_works).toBe(false);
    expect(wrong.identity.self).toBe('refused');
    expect(wrong.identity.unauthorized?.reason).toBe('unknown');
    expect(wrong.verdict.level).toBe('fail');
    expect(wrong.operations.items.filter((i) => i.outcome === 'allowed')).toEqual([]);
    expect(JSON.stringify(wrong)).not.toContain('cog_not_a_real_one');

    // An IP access list that leaves out loopback: the sandbox refuses every request from 127.0.0.1.
    const saved = sb.sandbox.db.prepare('SELECT position, ip_range FROM ip_access_list').all() as Array<{
      position: number;
      ip_range: string;
    }>;
    const put = await fetch(`${sb.url}/v3/enterprise/ip-access-list`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${SANDBOX_CREDENTIALS.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ip_ranges: ['203.0.113.0/24'] }),
    });
    // The direct write above is the test's own setup, not the doctor's.
    sb.methods.length = 0;
    expect(put.status).toBe(200);
    try {
      const refused = await run({ baseUrl: sb.url, apiKey: SANDBOX_CREDENTIALS.admin, mode: 'sandbox' });
      expect(refused.credential_works).toBe(false);
      expect(refused.identity.unauthorized?.reason).toBe('ip_not_allowed');
      expect(refused.identity.unauthorized?.explanation).toMatch(/IP access list/);
      expect(new Set(sb.methods)).toEqual(new Set(['GET']));
    } finally {
      sb.sandbox.db.prepare('DELETE FROM ip_access_list').run();
      const insert = sb.sandbox.db.prepare('INSERT INTO ip_access_list (position, ip_range) VALUES (?, ?)');
      for (const row of saved) insert.run(row.position, row.ip_range);
    }
  }, 60_000);

  it('names the reasons of the sandbox and of real services', () => {
    const body = (detail: string, extra = {}) =>
      JSON.stringify({ status: 401, title: 'Unauthorized', detail, ...extra });
    expect(
      explainUnauthorized(body('Missing credential: send the header Authorization: Bearer cog_…'), 'cog').reason,
    ).toBe('missing');
    expect(explainUnauthorized('', 'missing').reason).toBe('missing');
    expect(
      explainUnauthorized(body('Expired credential: its lifetime ended at 2025-01-01T00:00:00Z'), 'cog').reason,
    ).toBe('expired');
    expect(
      explainUnauthorized(body('Revoked credential: its service user was deleted at 2025-01-01T00:00:00Z'), 'cog')
        .reason,
    ).toBe('revoked');
    expect(explainUnauthorized(body('Unknown, revoked or expired credential'), 'cog').reason).toBe('unknown');
    expect(
      explainUnauthorized(body('Not a service-user credential: credentials start with "cog_"'), 'other').reason,
    ).toBe('not_cog');
    expect(
      explainUnauthorized(
        body('Requests from IP address 10.1.2.3 are not allowed by the IP access list', { reason: 'ip_not_allowed' }),
        'cog',
      ).reason,
    ).toBe('ip_not_allowed');
    expect(explainUnauthorized('<html>nope</html>', 'cog').reason).toBe('other');
  });
});

/** A deliberately non-conforming upstream: wrong types, a broken page envelope, unknown values, a missing field, a 429. */
async function startFakeUpstream() {
  const writes: string[] = [];
  const seen: string[] = [];
  let sessionsCalls = 0;
  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, {
      'content-type': status >= 400 ? 'application/problem+json' : 'application/json',
      ...headers,
    });
    res.end(JSON.stringify(body));
  };
  const problem = (res: ServerResponse, status: number, detail: string, headers: Record<string, string> = {}) =>
    json(res, status, { type: 'about:blank', status, title: String(status), detail }, headers);
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'GET') {
      writes.push(`${req.method} ${req.url}`);
      return problem(res, 405, 'the doctor must never write');
    }
    const url = new URL(req.url ?? '/', 'http://x');
    seen.push(`${url.pathname}${url.search}`);
    if (req.headers.authorization !== 'Bearer cog_fake_good')
      return problem(res, 401, 'Unknown, revoked or expired credential');
    switch (url.pathname) {
      case '/v3/self':
        return json(res, 200, {
          principal_type: 'service_user',
          service_user_id: 'service-user-fake',
          service_user_name: 'Fake',
          org_id: null,
        });
      case '/v3/enterprise/organizations':
        return json(res, 200, {
          // Wrong type, a timestamp in milliseconds, an unknown extra field, and more pages without a cursor.
          items: [{ org_id: 'org-fake1', name: 42, created_at: 1_717_712_958_000, colour: 'teal' }],
          end_cursor: null,
          has_next_page: true,
        });
      case '/v3/enterprise/organizations/org-fake1':
        // The required `name` is missing.
        return json(res, 200, { org_id: 'org-fake1', created_at: 1_717_712_958 });
      case '/v3/organizations/org-fake1/sessions':
        sessionsCalls++;
        if (sessionsCalls === 1) return problem(res, 429, 'slow down', { 'retry-after': '1' });
        return json(res, 200, {
          items: [
            {
              session_id: 'session-fake1',
              url: 'https://example.test/s/1',
              status: 'levitating',
              org_id: 'org-fake1',
              created_at: 1_717_712_958,
              updated_at: '2024-06-07T00:00:00Z',
            },
          ],
          // A cursor on the last page.
          end_cursor: 'cursor-after-the-end',
          has_next_page: false,
        });
      case '/v3/enterprise/roles':
        // The vendor's Role: no permissions, no is_built_in.
        return json(res, 200, {
          items: [{ role_id: 'role-x', role_name: 'X', role_type: 'galactic' }],
          end_cursor: null,
          has_next_page: false,
        });
      case '/v3/enterprise/members/idp-groups':
        // Groups without their role mappings.
        return json(res, 200, { items: [{ idp_group_name: 'eng' }], end_cursor: null, has_next_page: false });
      case '/v3/enterprise/consumption/acu-limits/devin':
        // The vendor's path for acu-limits/agent (which answers 404 here, as every unknown path).
        return json(res, 200, {
          items: [{ cycle_acu_limit: 100, scope: 'enterprise', org_id: null, user_id: null }],
          end_cursor: null,
          has_next_page: false,
        });
      default:
        return problem(res, 404, `No operation at GET ${url.pathname}`);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    writes,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('doctor against a non-conforming upstream', () => {
  let fake: Awaited<ReturnType<typeof startFakeUpstream>>;
  let report: DoctorReport;
  beforeAll(async () => {
    fake = await startFakeUpstream();
    report = await run({ baseUrl: fake.url, apiKey: 'cog_fake_good', mode: 'upstream' });
  }, 60_000);
  afterAll(() => fake?.close());

  const issue = (op: string, where: string) =>
    report.conformance.issues.find((i) => i.operation_id === op && i.where === where);

  it('finishes, and reports each defect where it is', () => {
    expect(report.credential_works).toBe(true);
    expect(issue('organizations.list', 'items[0].name')).toMatchObject({ kind: 'wrong_type' });
    expect(issue('organizations.list', 'items[0].name')!.message).toMatch(/expected string, got the integer 42/);
    expect(issue('organizations.list', 'items[0].created_at')).toMatchObject({ kind: 'timestamp' });
    expect(issue('organizations.list', 'items[0].created_at')!.message).toMatch(/milliseconds/);
    expect(issue('organizations.list', 'end_cursor')).toMatchObject({ kind: 'paging' });
    expect(issue('organizations.list', 'end_cursor')!.message).toMatch(/has_next_page is true but end_cursor is null/);
    expect(issue('organizations.get', 'name')).toMatchObject({ kind: 'missing_field' });
    expect(issue('sessions.list', 'items[0].status')).toMatchObject({ kind: 'unknown_enum' });
    expect(issue('sessions.list', 'items[0].status')!.message).toMatch(/levitating/);
    expect(issue('sessions.list', 'items[0].updated_at')).toMatchObject({ kind: 'timestamp' });
    expect(issue('sessions.list', 'end_cursor')!.message).toMatch(/cursor on the last page/);
    expect(issue('roles.list', 'items[0].role_type')).toMatchObject({ kind: 'unknown_enum' });
    expect(report.conformance.verdict.level).toBe('fail');
    // The unknown extra field is counted, not an error.
    expect(report.conformance.unknown_fields.items).toContainEqual({
      operation_id: 'organizations.list',
      where: 'items[0].colour',
    });
    expect(report.conformance.issues.some((i) => i.where.includes('colour'))).toBe(false);
    expect(report.conformance.issues.find((i) => i.operation_id === 'self.get')).toBeUndefined();
  });

  it('marks the fields a screen relies on as missing when the answer lacks them, naming the screen', () => {
    const messages = (op: string, where: string) =>
      report.conformance.issues
        .filter((i) => i.operation_id === op && i.where === where && i.kind === 'missing_field')
        .map((i) => i.message);
    expect(messages('roles.list', 'items[0].permissions')).toEqual([
      'Roles: permissions not published; the screen says so',
      "Effective access: the roles' permissions not published; the screen says so",
    ]);
    expect(messages('roles.list', 'items[0].is_built_in')).toEqual([
      'Roles: built-in or custom not published; the screen says so',
    ]);
    expect(messages('idpGroups.roles.list', 'items[0].role_assignments')).toEqual([
      "IdP groups: each group's enterprise role not published; the screen says so",
    ]);
    expect(report.conformance.not_published).toEqual(
      expect.arrayContaining([
        { operation_id: 'roles.list', field: 'permissions' },
        { operation_id: 'roles.list', field: 'is_built_in' },
        { operation_id: 'idpGroups.roles.list', field: 'role_assignments' },
      ]),
    );
    // The answer does not conform, though the contract's schema alone lets it pass.
    expect(report.operations.items.find((i) => i.id === 'idpGroups.roles.list')?.defects).toBe(1);
    const roles = report.screens?.find((c) => c.to === '/roles');
    expect(roles).toMatchObject({ works: 'partly', not_published: ['permissions', 'built-in or custom'] });
    expect(roles?.why).toMatch(/not published by this upstream: permissions, built-in or custom/);
    // A screen whose own read is not there will not work, whatever else it lacks.
    expect(report.screens?.find((c) => c.to === '/access')?.works).toBe('no');
  });

  it('finds the path the upstream serves for an operation with alternates, and says so', () => {
    const limits = report.operations.items.find((i) => i.id === 'acuLimits.list');
    expect(limits).toMatchObject({
      outcome: 'allowed',
      served_path: '/v3/enterprise/consumption/acu-limits/devin',
      request: '/v3/enterprise/consumption/acu-limits/devin?first=1',
    });
    const finding = report.operations.paths?.find((p) => p.operation_id === 'acuLimits.list');
    expect(finding?.line).toBe(
      'acuLimits.list: served at /v3/enterprise/consumption/acu-limits/devin (first choice …/agent: 404)',
    );
    expect(finding?.tried).toEqual([
      { path: '/v3/enterprise/consumption/acu-limits/agent', status: 404 },
      { path: '/v3/enterprise/consumption/acu-limits/devin', status: 200 },
    ]);
    // Both paths asked, in that order.
    const asked = fake.seen.filter((u) => u.includes('/acu-limits/')).map((u) => u.split('?')[0]);
    expect(asked.slice(0, 2)).toEqual([
      '/v3/enterprise/consumption/acu-limits/agent',
      '/v3/enterprise/consumption/acu-limits/devin',
    ]);
    // Served nowhere: every path answered 404.
    const idp = report.operations.paths?.find((p) => p.operation_id === 'idpGroups.list');
    expect(idp?.served_path).toBeNull();
    expect(idp?.line).toBe('idpGroups.list: served at none of its 2 paths (404, 404)');
  });

  it('waits out the 429 and says Retry-After was seen', () => {
    expect(report.rate_limit.responses_429).toBe(1);
    expect(report.rate_limit.retry_after_seen).toBe(true);
    expect(report.rate_limit.waited_ms).toBeGreaterThanOrEqual(1000);
    expect(report.rate_limit.verdict.level).toBe('warn');
    expect(report.operations.items.find((i) => i.id === 'sessions.list')?.outcome).toBe('allowed');
    expect(fake.seen.filter((s) => s.startsWith('/v3/organizations/org-fake1/sessions?'))).toHaveLength(2);
  });

  it('reports operations the upstream does not have as not present, with ids from earlier answers', () => {
    const get = report.operations.items.find((i) => i.id === 'sessions.get');
    expect(get?.outcome).toBe('not_present');
    expect(get?.request).toBe('/v3/organizations/org-fake1/sessions/session-fake1');
    expect(report.operations.counts.not_present).toBeGreaterThan(10);
    expect(report.operations.items.every((i) => i.outcome !== 'failed')).toBe(true);
  });

  it('never sends a write', () => {
    expect(fake.writes).toEqual([]);
    expect(fake.seen.length).toBeGreaterThan(10);
  });
});

describe('the console endpoints', () => {
  /** A settings store in memory: where the console keeps the last report. */
  function memorySettings(): SettingsStore {
    const map = new Map<string, unknown>();
    return {
      get: async <T>(key: string) => map.get(key) as T | undefined,
      set: async (key, value) => void map.set(key, JSON.parse(JSON.stringify(value))),
      delete: async (key) => void map.delete(key),
    };
  }

  /** The handlers behind `/console/doctor…`, on a virtual clock: start a run, follow it, read the summary. */
  async function runThrough(apiKey: string) {
    const h = doctorHandlers({
      config: { mode: 'sandbox', upstreamTimeoutMs: 15_000, accessToken: undefined },
      upstreamUrl: sb.url,
      apiKey,
      settings: memorySettings(),
      redactor: createRedactor([apiKey]),
      runOptions: { clock: virtualClock() },
    });
    const input = undefined as never;
    const before = await h['console.doctor.summary.get']!(input);
    expect(before).toMatchObject({ running: false, ran_at: null, refused_count: 0 });
    let state = (await h['console.doctor.runs.create']!(input)) as DoctorState;
    expect(state.running).not.toBeNull();
    for (let i = 0; i < 600 && state.running; i++) {
      await new Promise((r) => setTimeout(r, 50));
      state = (await h['console.doctor.get']!(input)) as DoctorState;
    }
    const summary = (await h['console.doctor.summary.get']!(input)) as DoctorSummary;
    return { state, summary, raw: JSON.stringify(state) };
  }

  it('runs on demand, keeps the last report, and the summary names the refused operations', async () => {
    const admin = await runThrough(SANDBOX_CREDENTIALS.admin);
    expect(admin.state.error).toBeNull();
    expect(admin.state.report?.credential_works).toBe(true);
    expect(admin.state.report?.screens?.length).toBe(CONSOLE_SCREENS.length);
    expect(admin.summary).toMatchObject({ running: false, credential_works: true, refused_count: 0, refused: [] });
    expect(admin.raw).not.toContain(SANDBOX_CREDENTIALS.admin);

    const viewer = await runThrough(SANDBOX_CREDENTIALS.viewer);
    expect(viewer.summary.refused_count).toBeGreaterThan(5);
    expect(viewer.summary.refused).toContainEqual({ id: 'gitConnections.list', permission: 'ManageGitIntegrations' });
    for (const r of viewer.summary.refused) expect(PERMISSIONS as readonly string[]).toContain(r.permission);
    expect(viewer.raw).not.toContain(SANDBOX_CREDENTIALS.viewer);
  }, 60_000);

  it('over HTTP: 202 on start, the report kept and read back (a refused credential: a run of two requests)', async () => {
    const c = await startTestConsole({ upstream: { baseUrl: sb.url, apiKey: 'cog_unknown_to_the_sandbox' } });
    try {
      const started = await c.api.call<DoctorState>('POST', '/console/doctor/runs');
      expect(started.status).toBe(202);
      expect(started.body.running).not.toBeNull();
      let state = started.body;
      for (let i = 0; i < 100 && state.running; i++) {
        await new Promise((r) => setTimeout(r, 50));
        state = (await c.api.get<DoctorState>('/console/doctor')).body;
      }
      expect(state.report?.credential_works).toBe(false);
      expect(state.report?.identity.unauthorized?.reason).toBe('unknown');
      expect(state.report?.screens?.length).toBe(CONSOLE_SCREENS.length);
      const summary = (await c.api.get<DoctorSummary>('/console/doctor/summary')).body;
      expect(summary).toMatchObject({ running: false, credential_works: false });
      expect((await c.api.get('/console/doctor')).text).not.toContain('cog_unknown_to_the_sandbox');
    } finally {
      await c.close();
    }
  }, 30_000);
});
