/**
 * The shared table mount: its rules on a table of three operations (405 with Allow, path 404, query and body
 * 422, 415, 413), and an empty body read as absent. The products' own tests check they agree on it
 * (`src/sandbox/dispatcher.test.ts`, `src/server/console/mount.test.ts`).
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpProblem, httpProblemResponse } from './problem-writer';
import { mountTable, MISSING_BODY_ERROR, type MountedOperation } from './table-mount';

const ops: MountedOperation[] = [
  {
    id: 'things.create',
    method: 'POST',
    path: '/things/{thing_id}',
    params: z.object({ thing_id: z.string().regex(/^t-\d+$/) }),
    query: z.object({ dry: z.enum(['yes', 'no']).optional() }),
    body: z.strictObject({ name: z.string().max(5) }),
  },
  { id: 'things.get', method: 'GET', path: '/things/{thing_id}' },
  { id: 'things.touch', method: 'PATCH', path: '/things/{thing_id}', body: z.strictObject({}).optional() },
];

function app() {
  const a = new Hono();
  mountTable<MountedOperation, string, null>(a, {
    operations: ops,
    server: 'the test',
    handlerOf: (op) => (req) => ({ op: op.id, params: req.params, query: req.query, body: req.body ?? null }),
    servedAt: (op) => [{ path: op.path, at: null }],
    maxBodyBytes: 64,
    guard: (c) => (c.req.header('x-refuse') ? new Response(null, { status: 401 }) : { guarded: 'someone' }),
    answer: (c, _op, result) => c.json(result as object),
    onError: (c, _op, err) => httpProblemResponse(err as HttpProblem, c.req.path),
    problem: (c, status, detail, headers) =>
      httpProblemResponse(new HttpProblem(status, detail, {}, headers), c.req.path),
  });
  return a;
}

const json = (body: unknown, type = 'application/json') => ({
  method: 'POST',
  headers: { 'content-type': type },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

describe('the shared table mount', () => {
  it('routes, validates and calls the handler with the parsed request', async () => {
    const res = await app().request('/things/t-1?dry=yes', json({ name: 'ab' }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      op: 'things.create',
      params: { thing_id: 't-1' },
      query: { dry: 'yes' },
      body: { name: 'ab' },
    });
  });

  it('answers 405 with Allow naming the methods the path serves', async () => {
    const res = await app().request('/things/t-1', { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST, GET, PATCH');
  });

  it('keeps the product guard in front of validation', async () => {
    expect((await app().request('/things/nope', { method: 'GET', headers: { 'x-refuse': '1' } })).status).toBe(401);
  });

  it('answers 404 for a path parameter out of its schema, 422 for the query and the body', async () => {
    expect((await app().request('/things/nope', json({ name: 'a' }))).status).toBe(404);
    const query = await app().request('/things/t-1?dry=maybe', json({ name: 'a' }));
    expect(query.status).toBe(422);
    expect((await query.json()).errors[0].loc).toEqual(['query', 'dry']);
    const body = await app().request('/things/t-1', json({ name: 'toolong' }));
    expect(body.status).toBe(422);
    expect((await body.json()).errors[0].loc).toEqual(['body', 'name']);
  });

  it('refuses a body that is not JSON (415), not valid JSON (422) or too large (413)', async () => {
    expect((await app().request('/things/t-1', json({ name: 'a' }, 'text/plain'))).status).toBe(415);
    expect((await app().request('/things/t-1', json('{"name":'))).status).toBe(422);
    expect((await app().request('/things/t-1', json({ name: 'x'.repeat(100) }))).status).toBe(413);
  });

  it('reads an empty body as absent: 422 "missing" where one is required, accepted where the schema allows none', async () => {
    const missing = await app().request('/things/t-1', { method: 'POST' });
    expect(missing.status).toBe(422);
    expect((await missing.json()).errors).toEqual([MISSING_BODY_ERROR]);
    const optional = await app().request('/things/t-1', { method: 'PATCH' });
    expect(optional.status).toBe(200);
    expect((await optional.json()).body).toBeNull();
  });
});
