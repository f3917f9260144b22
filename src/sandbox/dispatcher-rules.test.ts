/** Dispatcher rules on a small table of its own: 403 naming the permission, body validation, 415, reply shapes. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineOperations } from '../api/operations/define';
import { createDispatcher } from './dispatcher';
import { createSandbox } from './index';
import { createRateLimiter } from './rate-limit';
import { HttpProblem } from '../node/problem-writer';

const ops = defineOperations({
  'test.write': {
    id: 'test.write',
    method: 'POST',
    path: '/v3/organizations/{org_id}/things',
    permission: 'ManageOrganizations',
    scope: 'organization',
    summary: 'a write',
    params: z.object({ org_id: z.string() }),
    body: z.strictObject({
      name: z.string().min(1, 'name is required').max(5, 'name is at most 5 characters'),
      n: z.number().int(),
    }),
    response: z.object({ ok: z.boolean() }),
    status: 201,
  },
  'test.fail': {
    id: 'test.fail',
    method: 'GET',
    path: '/v3/fail',
    permission: 'AnyCredential',
    scope: 'enterprise',
    summary: 'a handler that throws',
  },
});

function setup() {
  const sb = createSandbox({ dbPath: ':memory:' });
  const orgId = (sb.db.prepare('SELECT org_id FROM organizations LIMIT 1').get() as { org_id: string }).org_id;
  const app = createDispatcher({
    ctx: sb.ctx,
    operations: Object.values(ops),
    rateLimiter: createRateLimiter(0),
    handlers: {
      'test.write': () => ({ ok: true }),
      'test.fail': () => {
        throw new HttpProblem(409, 'already there');
      },
    } as never,
  });
  const call = (method: string, path: string, token: string, body?: string, type = 'application/json') =>
    app.request(path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': type } : {}) },
      body,
    });
  return { sb, orgId, call };
}

describe('dispatcher rules', () => {
  it('403 names the missing permission and its level', async () => {
    const { sb, orgId, call } = setup();
    const res = await call('POST', `/v3/organizations/${orgId}/things`, 'cog_sandbox_viewer', '{"name":"a","n":1}');
    expect(res.status).toBe(403);
    const body = (await res.json()) as { detail: string };
    expect(body.detail).toMatch(/ManageOrganizations permission \(organization level\)/);
    sb.close();
  });

  it('422 lists every failing body field with its location', async () => {
    const { sb, orgId, call } = setup();
    const res = await call(
      'POST',
      `/v3/organizations/${orgId}/things`,
      'cog_sandbox_admin',
      '{"name":"toolong","n":"x","extra":1}',
    );
    expect(res.status).toBe(422);
    const body = (await res.json()) as { errors: Array<{ loc: unknown[]; msg: string }> };
    const locs = body.errors.map((e) => e.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.name', 'body.n', 'body']));
    expect(body.errors.find((e) => e.loc.join('.') === 'body.name')!.msg).toBe('name is at most 5 characters');
    sb.close();
  });

  it('422 on a body that is not JSON, 415 on a body that is not declared JSON', async () => {
    const { sb, orgId, call } = setup();
    const bad = await call('POST', `/v3/organizations/${orgId}/things`, 'cog_sandbox_admin', '{nope');
    expect(bad.status).toBe(422);
    const form = await call(
      'POST',
      `/v3/organizations/${orgId}/things`,
      'cog_sandbox_admin',
      'name=a',
      'application/x-www-form-urlencoded',
    );
    expect(form.status).toBe(415);
    sb.close();
  });

  it('404s an unknown organization before the handler runs, answers the success status', async () => {
    const { sb, orgId, call } = setup();
    const missing = await call('POST', '/v3/organizations/org-nope/things', 'cog_sandbox_admin', '{"name":"a","n":1}');
    expect(missing.status).toBe(404);
    const ok = await call('POST', `/v3/organizations/${orgId}/things`, 'cog_sandbox_admin', '{"name":"a","n":1}');
    expect(ok.status).toBe(201);
    expect(await ok.json()).toEqual({ ok: true });
    sb.close();
  });

  it('turns a handler problem into a problem body with the request path', async () => {
    const { sb, call } = setup();
    const res = await call('GET', '/v3/fail', 'cog_sandbox_admin');
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({
      status: 409,
      title: 'Conflict',
      detail: 'already there',
      instance: '/v3/fail',
    });
    sb.close();
  });

  it('refuses to start when an operation has no handler', () => {
    const sb = createSandbox({ dbPath: ':memory:' });
    expect(() =>
      createDispatcher({
        ctx: sb.ctx,
        operations: Object.values(ops),
        rateLimiter: createRateLimiter(0),
        handlers: {},
      }),
    ).toThrow(/no handler for operation test.write/);
    sb.close();
  });
});
