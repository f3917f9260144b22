/**
 * The sandbox's table-driven rules over real HTTP: 401, 403, 404, 422, 429, problem bodies, and a walk of the
 * whole operation table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationList } from '../api/operations';
import { READ_PERMISSIONS, type Permission } from '../api/permissions';
import { ADMIN, VIEWER, startTestSandbox } from '../test/harness';

let sb: Awaited<ReturnType<typeof startTestSandbox>>;
let orgId: string;

beforeAll(async () => {
  sb = await startTestSandbox();
  const res = await sb.api.get('/v3/enterprise/organizations?first=1');
  orgId = res.body.items[0].org_id;
});
afterAll(() => sb.stop());

function expectProblem(res: { status: number; headers: Headers; body: any }, status: number, path: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  expect(res.body).toMatchObject({ status, title: expect.any(String), detail: expect.any(String), instance: path });
}

describe('credentials (401)', () => {
  const path = '/v3/enterprise/organizations';
  it.each([
    ['missing', undefined, /Missing credential/],
    ['malformed', 'Token cog_sandbox_admin', /Malformed/],
    ['not a cog_ credential', 'Bearer sk_live_123', /start with "cog_"/],
    ['unknown', 'Bearer cog_unknown_credential', /Unknown/],
  ])('refuses a %s credential', async (_name, header, detail) => {
    const res = await sb.api.call('GET', path, { token: null, headers: header ? { authorization: header } : {} });
    expectProblem(res, 401, path);
    expect(res.body.detail).toMatch(detail);
  });

  it('accepts the demo credentials and says who they are', async () => {
    const admin = await sb.api.get('/v3/self', ADMIN);
    expect(admin.status).toBe(200);
    expect(admin.body).toMatchObject({ principal_type: 'service_user', service_user_id: expect.any(String) });
    const viewer = await sb.api.get('/v3/self', VIEWER);
    expect(viewer.body.permissions.every((p: string) => p.startsWith('View'))).toBe(true);
  });
});

describe('organizations', () => {
  it('seeds an enterprise with at least five realistically named organizations', async () => {
    const res = await sb.api.get('/v3/enterprise/organizations');
    expect(res.status).toBe(200);
    expect(res.body.items.length).toBeGreaterThanOrEqual(5);
    for (const o of res.body.items) {
      expect(o.org_id).toMatch(/^org-/);
      expect(o.name).toMatch(/^[A-Z][a-z]+( [A-Z][a-z]+)*$/);
      expect(Number.isInteger(o.created_at)).toBe(true);
    }
    expect(res.body).toMatchObject({ has_next_page: false, end_cursor: null });
  });

  it('gets one organization, and 404s an unknown one', async () => {
    const one = await sb.api.get(`/v3/enterprise/organizations/${orgId}`);
    expect(one.body.org_id).toBe(orgId);
    const missing = await sb.api.get('/v3/enterprise/organizations/org-doesnotexist');
    expectProblem(missing, 404, '/v3/enterprise/organizations/org-doesnotexist');
    expect(missing.body.detail).toContain('org-doesnotexist');
  });

  it('404s unknown paths and 405s a wrong method', async () => {
    expectProblem(await sb.api.get('/v3/no/such/thing'), 404, '/v3/no/such/thing');
    const wrong = await sb.api.call('PATCH', '/v3/self');
    expectProblem(wrong, 405, '/v3/self');
    expect(wrong.headers.get('allow')).toContain('GET');
  });
});

describe('paging (422 on bad query, stable cursors)', () => {
  const path = '/v3/enterprise/organizations';
  it.each(['0', '201', 'abc', '1.5', '-3', ''])('refuses first=%s with a field error', async (first) => {
    const res = await sb.api.get(`${path}?first=${first}`);
    expectProblem(res, 422, path);
    expect(res.body.errors).toEqual([
      expect.objectContaining({ loc: ['query', 'first'], msg: expect.stringMatching(/integer from 1 to 200/) }),
    ]);
  });

  it('accepts first=1 and first=200', async () => {
    expect((await sb.api.get(`${path}?first=1`)).body.items).toHaveLength(1);
    expect((await sb.api.get(`${path}?first=200`)).status).toBe(200);
  });

  it('lists every failing field: a bad first and a malformed cursor together', async () => {
    const res = await sb.api.get(`${path}?first=abc&after=not-a-cursor!`);
    expectProblem(res, 422, path);
    expect(res.body.errors.map((e: { loc: unknown[] }) => e.loc)).toEqual([
      ['query', 'first'],
      ['query', 'after'],
    ]);
  });

  it('refuses a cursor that decodes but belongs to nothing', async () => {
    const forged = Buffer.from(JSON.stringify({ s: 'other-list', k: [1, 'x'] })).toString('base64url');
    const res = await sb.api.get(`${path}?after=${forged}`);
    expectProblem(res, 422, path);
    expect(res.body.errors[0].loc).toEqual(['query', 'after']);
  });

  it('never skips or repeats an item while items are added during paging', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    let added = 0;
    do {
      const res: { body: { items: { org_id: string }[]; end_cursor: string | null; has_next_page: boolean } } =
        await sb.api.get(`${path}?first=2${after ? `&after=${after}` : ''}`);
      seen.push(...res.body.items.map((o) => o.org_id));
      after = res.body.has_next_page ? res.body.end_cursor : null;
      // Another admin adds organizations, both "older" and newer than the cursor.
      sb.db
        .prepare('INSERT INTO organizations (org_id, name, created_at, updated_at) VALUES (?, ?, ?, ?)')
        .run(`org-added${added}`, `Added ${added}`, sb.ctx.now() + added, sb.ctx.now());
      added++;
    } while (after);
    expect(new Set(seen).size).toBe(seen.length);
    const all = (await sb.api.get(`${path}?first=200`)).body.items.map((o: { org_id: string }) => o.org_id);
    // Everything that existed before paging started was served, in order.
    const before = all.filter((id: string) => !id.startsWith('org-added'));
    expect(seen.filter((id) => !id.startsWith('org-added'))).toEqual(before);
  });
});

describe('the operation table', () => {
  it('has a sandbox handler, a unique id and method+path for every operation', () => {
    const keys = operationList.map((o) => `${o.method} ${o.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(operationList.map((o) => o.id)).size).toBe(operationList.length);
    for (const op of operationList) {
      expect(op.path).toMatch(/^\/(v3|v3beta1)\//);
      if (op.paginated) expect(op.query?.shape).toHaveProperty('first');
    }
  });

  const fill = (path: string) =>
    path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'org_id' ? orgId : `missing-${name}`));

  it.each(operationList.map((o) => [o.id, o] as const))('%s answers 401 without a credential', async (_id, op) => {
    const path = fill(op.path);
    const res = await sb.api.call(op.method, path, { token: null });
    expectProblem(res, 401, path);
  });

  const forbidden = operationList.filter(
    (o) => o.permission !== 'AnyCredential' && !READ_PERMISSIONS.includes(o.permission as Permission),
  );
  it.each(forbidden.map((o) => [o.id, o] as const))(
    '%s answers 403 to the viewer, naming the permission',
    async (_id, op) => {
      const path = fill(op.path);
      const res = await sb.api.call(op.method, path, { token: VIEWER, body: op.body ? {} : undefined });
      expectProblem(res, 403, path);
      expect(res.body.detail).toContain(op.permission);
    },
  );

  const paginated = operationList.filter((o) => o.paginated);
  it.each(paginated.map((o) => [o.id, o] as const))('%s refuses first=0 and first=201', async (_id, op) => {
    const path = fill(op.path);
    for (const first of ['0', '201']) {
      const res = await sb.api.call(op.method, `${path}?first=${first}`);
      expectProblem(res, 422, path);
      expect(res.body.errors.some((e: { loc: unknown[] }) => e.loc.join('.') === 'query.first')).toBe(true);
    }
  });
});

describe('rate limit (429)', () => {
  it('answers 429 with Retry-After once a credential exceeds SANDBOX_RATE_LIMIT, per credential', async () => {
    const limited = await startTestSandbox({ rateLimitPerMinute: 3 });
    try {
      for (let i = 0; i < 3; i++) expect((await limited.api.get('/v3/self')).status).toBe(200);
      const res = await limited.api.get('/v3/self');
      expectProblem(res, 429, '/v3/self');
      const retry = Number(res.headers.get('retry-after'));
      expect(retry).toBeGreaterThanOrEqual(1);
      expect(retry).toBeLessThanOrEqual(60);
      // Another credential has its own budget.
      expect((await limited.api.get('/v3/self', VIEWER)).status).toBe(200);
    } finally {
      await limited.stop();
    }
  });

  it('is off with a limit of 0', async () => {
    const unlimited = await startTestSandbox({ rateLimitPerMinute: 0 });
    try {
      const statuses = await Promise.all(Array.from({ length: 50 }, () => unlimited.api.get('/v3/self')));
      expect(statuses.every((r) => r.status === 200)).toBe(true);
    } finally {
      await unlimited.stop();
    }
  });
});

describe('OpenAPI document', () => {
  it('is generated from the operation table and served at /openapi.json', async () => {
    const res = await sb.api.get('/openapi.json', null);
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    for (const op of operationList) {
      const entry = res.body.paths[op.path]?.[op.method.toLowerCase()];
      expect(entry, op.id).toMatchObject({ operationId: op.id, 'x-permission': op.permission });
    }
    const first = res.body.paths['/v3/enterprise/organizations'].get.parameters.find(
      (p: { name: string }) => p.name === 'first',
    );
    expect(first.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 200 });
  });
});

describe('an empty body (the shared table mount, as the console reads it)', () => {
  it('is an absent body: 422 "missing" where the operation takes one, even one whose fields are all optional', async () => {
    const target = (await sb.api.get(`/v3/organizations/${orgId}/schedules?first=1`)).body.items[0];
    for (const path of [
      `/v3/organizations/${orgId}/sessions`,
      ...(target ? [`/v3/organizations/${orgId}/schedules/${target.scheduled_session_id}`] : []),
    ]) {
      const method = path.endsWith('/sessions') ? 'POST' : 'PATCH';
      const res = await sb.api.call(method, path, { headers: { 'content-type': 'application/json' } });
      expectProblem(res, 422, path);
      expect(res.body.errors).toEqual([{ loc: ['body'], msg: expect.stringMatching(/missing/), type: 'missing' }]);
    }
  });
});
