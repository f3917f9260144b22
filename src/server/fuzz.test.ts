/**
 * Fuzzing: thousands of random and malformed requests (methods, paths, query values, JSON bodies) to the
 * sandbox and through the proxy. No 5xx, no crash; every answer a well-formed problem body or a valid
 * response (the test sandbox checks every success against the operation's response schema).
 * `FUZZ_SEED=<n> npx vitest run src/server/fuzz.test.ts` explores other request sequences.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { operationList } from '../api/operations';
import { ProblemDetail } from '../api/problem';
import { createRng, type Rng } from '../sandbox/random';
import { ADMIN, VIEWER, rawRequest, startTestConsole } from '../test/harness';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
const NASTY = [
  '',
  ' ',
  '0',
  '-1',
  '201',
  '1e309',
  'NaN',
  'null',
  'true',
  '[]',
  '{}',
  '%',
  '%zz',
  '%00',
  '\u00e9\u4e2d',
  'a,b,,c',
  "'; DROP TABLE x;--",
  '../..',
  'x'.repeat(3000),
  '99999999999999999999',
];

function randomValue(rng: Rng, depth = 0): unknown {
  switch (rng.int(0, 9)) {
    case 0:
      return rng.pick(NASTY);
    case 1:
      return rng.int(-1000, 100000);
    case 2:
      return rng.next() * 1e6 - 5e5;
    case 3:
      return rng.chance(0.5);
    case 4:
      return null;
    case 5:
      return depth < 3 ? Array.from({ length: rng.int(0, 5) }, () => randomValue(rng, depth + 1)) : [];
    case 6:
      return depth < 3
        ? Object.fromEntries(
            Array.from({ length: rng.int(0, 4) }, () => [
              rng.pick(['key', 'value', 'repo_path', 'name', 'x']),
              randomValue(rng, depth + 1),
            ]),
          )
        : {};
    case 7:
      return 'y'.repeat(rng.int(0, 70_000));
    default:
      return rng.hex(rng.int(1, 12));
  }
}

function shapeKeys(schema: unknown): string[] {
  if (schema instanceof z.ZodObject) return Object.keys(schema.shape);
  return [];
}

function randomRequest(rng: Rng, orgIds: string[]) {
  const op = rng.pick(operationList);
  const method = rng.chance(0.85) ? op.method : rng.pick(METHODS);
  let path = op.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    name === 'org_id' && rng.chance(0.8)
      ? rng.pick(orgIds)
      : encodeURIComponent(String(rng.pick([rng.hex(8), ...NASTY.filter(Boolean)]))),
  );
  if (rng.chance(0.05)) path = `/v3/${rng.hex(4)}/${encodeURIComponent(rng.pick(NASTY.filter(Boolean)).slice(0, 20))}`;
  const params = new URLSearchParams();
  for (const key of [...shapeKeys(op.query), 'first', 'after', rng.hex(3)]) {
    if (!rng.chance(0.4)) continue;
    const n = rng.int(1, 2);
    for (let i = 0; i < n; i++)
      params.append(key, String(rng.chance(0.3) ? rng.int(0, 250) : randomValue(rng)).slice(0, 500));
  }
  const query = params.toString();
  let body: string | undefined;
  if (method !== 'GET' && method !== 'HEAD' && rng.chance(0.8)) {
    if (rng.chance(0.1)) body = rng.pick(['{', 'not json', '[1,2', '"str"', '12', 'null']);
    else if (rng.chance(0.2)) body = JSON.stringify(randomValue(rng));
    else
      body = JSON.stringify(
        Object.fromEntries(
          shapeKeys(op.body)
            .filter(() => rng.chance(0.7))
            .map((k) => [k, randomValue(rng)]),
        ),
      );
  }
  const token = rng.chance(0.9) ? ADMIN : rng.pick([VIEWER, 'cog_nope', 'garbage']);
  return { method, path: query ? `${path}?${query}` : path, body, token };
}

function checkAnswer(res: { status: number; headers: Record<string, unknown> | Headers; text: string }, where: string) {
  const type =
    res.headers instanceof Headers
      ? res.headers.get('content-type')
      : (res.headers['content-type'] as string | undefined);
  expect(res.status, `${where} → ${res.status} ${res.text.slice(0, 300)}`).toBeLessThan(500);
  if (res.status >= 400 && !(res.status === 405 && where.startsWith('HEAD'))) {
    expect(type, where).toBe('application/problem+json');
    if (where.startsWith('HEAD')) return;
    const problem = ProblemDetail.safeParse(JSON.parse(res.text));
    expect(problem.success, `${where}: ${res.text.slice(0, 300)}`).toBe(true);
    expect(problem.data!.status).toBe(res.status);
    expect(typeof problem.data!.detail).toBe('string');
  } else if (res.text.length > 0 && !where.startsWith('HEAD')) {
    expect(() => JSON.parse(res.text), where).not.toThrow();
  }
}

let c: Awaited<ReturnType<typeof startTestConsole>>;
let orgIds: string[];
beforeAll(async () => {
  c = await startTestConsole({ sandbox: { rateLimitPerMinute: 0, tickMs: 20 } });
  const res = await c.api.get('/api/v3/enterprise/organizations?first=200');
  orgIds = res.body.items.map((o: { org_id: string }) => o.org_id);
});
afterAll(() => c.close());

describe('fuzzing', () => {
  it('the sandbox answers 2,000 random requests without a 5xx, each well-formed', async () => {
    const rng = createRng(Number(process.env.FUZZ_SEED ?? 7));
    const sandbox = c.sandbox!;
    for (let i = 0; i < 2000; i++) {
      const r = randomRequest(rng, orgIds);
      const headers: Record<string, string> = { authorization: `Bearer ${r.token}` };
      if (r.body !== undefined) headers['content-type'] = 'application/json';
      const res = await rawRequest(
        sandbox.port,
        r.method,
        r.path,
        { ...headers, host: `127.0.0.1:${sandbox.port}` },
        r.body,
      );
      checkAnswer(res, `${r.method} ${r.path.slice(0, 200)} ${r.body?.slice(0, 100) ?? ''}`);
    }
  }, 120_000);

  it('the proxy answers 1,000 random requests without a 5xx, each well-formed', async () => {
    const rng = createRng(Number(process.env.FUZZ_SEED ?? 7) + 4);
    for (let i = 0; i < 1000; i++) {
      const r = randomRequest(rng, orgIds);
      const headers: Record<string, string> = {};
      if (r.body !== undefined) headers['content-type'] = rng.chance(0.9) ? 'application/json' : 'text/plain';
      if (rng.chance(0.1)) headers.origin = rng.pick(['https://evil.example', `http://localhost:${c.port}`, 'null']);
      const prefix = rng.chance(0.9) ? '/api' : rng.pick(['', '/console', '/api/v2', '/api/v3/..']);
      const res = await rawRequest(c.port, r.method, prefix + r.path, headers, r.body);
      const where = `${r.method} ${prefix}${r.path.slice(0, 200)}`;
      if (!(prefix + r.path).startsWith('/api') && !(prefix + r.path).startsWith('/console')) {
        expect(res.status, where).toBeLessThan(500);
        continue;
      }
      checkAnswer(res, where);
    }
  }, 120_000);

  it("the console's own endpoints answer 600 random requests, bodies of every shape up to the limit, without a 5xx and in bounded memory", async () => {
    const rng = createRng(Number(process.env.FUZZ_SEED ?? 7) + 9);
    const org = () =>
      rng.chance(0.8) ? rng.pick(orgIds) : encodeURIComponent(rng.pick(NASTY.filter(Boolean)).slice(0, 40));
    const id = () => String(rng.chance(0.5) ? rng.int(0, 20) : rng.pick(NASTY.filter(Boolean)).slice(0, 40));
    const endpoints: Array<() => [string, string]> = [
      () => ['GET', `/console/git-permissions/orgs/${org()}`],
      () => ['PUT', `/console/git-permissions/orgs/${org()}`],
      () => ['DELETE', `/console/git-permissions/orgs/${org()}`],
      () => [
        'GET',
        `/console/git-permissions/orgs/${org()}/revisions?first=${encodeURIComponent(id())}&after=${encodeURIComponent(id())}`,
      ],
      () => ['GET', `/console/git-permissions/orgs/${org()}/revisions/${encodeURIComponent(id())}`],
      () => [
        'GET',
        `/console/git-permissions/orgs/${org()}/revisions/diff?from=${encodeURIComponent(id())}&to=${encodeURIComponent(id())}`,
      ],
      () => ['POST', `/console/git-permissions/orgs/${org()}/revisions/${encodeURIComponent(id())}/restore`],
      () => ['PATCH', `/console/git-permissions/orgs/${org()}/permissions/${encodeURIComponent(id())}`],
      () => [
        rng.pick(METHODS),
        `/console/${rng.pick(['health', 'config', 'nope', 'git-permissions', 'git-permissions/orgs'])}`,
      ],
    ];
    /** Bodies of every shape, some near the 2 MiB limit: long arrays, deep nesting, long strings. */
    const body = (): string | undefined => {
      switch (rng.int(0, 7)) {
        case 0:
          return undefined;
        case 1:
          return rng.pick(['{', 'not json', '[1,2', '"str"', '12', 'null', '']);
        case 2:
          return `{"base_version":"v","permissions":[${'{},'.repeat(rng.int(1, 600_000))}{}]}`;
        case 3:
          return `{"base_version":${'['.repeat(rng.int(1, 50_000))}${']'.repeat(rng.int(1, 50_000))}}`;
        case 4:
          return JSON.stringify({
            base_version: rng.hex(8),
            permissions: Array.from({ length: rng.int(0, 6_000) }, () => ({
              git_connection_id: rng.pick(['conn-1', '', 'x']),
              repo_path: rng.pick(['acme/api', 'bad path', '', 'a'.repeat(600)]),
              read_only: rng.pick([true, false, 'no']),
            })),
            allow_per_item: rng.chance(0.5),
          });
        case 5:
          return JSON.stringify({ read_only: randomValue(rng), base_version: randomValue(rng), set: randomValue(rng) });
        default:
          return JSON.stringify(randomValue(rng));
      }
    };
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    for (let i = 0; i < 600; i++) {
      const [method, path] = rng.pick(endpoints)();
      const b = method === 'GET' || method === 'HEAD' ? undefined : body();
      const headers: Record<string, string> = b !== undefined ? { 'content-type': 'application/json' } : {};
      const res = await rawRequest(c.port, method, path, headers, b);
      checkAnswer(res, `${method} ${path.slice(0, 200)} ${b?.slice(0, 80) ?? ''}`);
      peak = Math.max(peak, process.memoryUsage().rss);
    }
    // The test process holds the console and the sandbox: all of it stays within a few hundred MB.
    expect(peak - rssBefore).toBeLessThan(400 * 1_048_576);
  }, 180_000);

  it('is still healthy afterwards', async () => {
    expect((await c.api.get('/console/health')).status).toBe(200);
    expect((await c.api.get('/api/v3/enterprise/organizations')).status).toBe(200);
  });
});
