/**
 * A role grant through the console is checked against the person's console roles: creating a service user or
 * giving a role, by the spec's paths and the vendor's, passes only when every permission of the granted role is
 * one the person's roles allow at the role's level. Over real HTTP: a gate in front of a sandbox (the API's
 * roles read from it), the body forwarded as it came.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationList } from '../../api/operations';
import { consoleOperationList } from '../../api/console';
import { READ_PERMISSIONS } from '../../api/permissions';
import { openDb, migrate } from '../../node/db';
import { ROLE_IDS } from '../../sandbox/modules/members/seed-data';
import { ADMIN, startTestSandbox } from '../../test/harness';
import { noteActor, type Principal } from '../console/actor';
import { activityMigrations, createSqliteActivityStore } from '../console/activity/store';
import { createUpstreamClient } from '../console/upstream-client';
import { createRedactor } from '../redact';
import { POLICY_REFUSED_TYPE } from './enforce';
import { createPolicyGate } from './gate';
import { operationOf, ROLE_ID_FIELDS } from './operations';
import { parsePolicy, rolesFor } from './policy';
import { createRoleCatalog, type RoleCatalog } from './role-catalog';

let sandbox: Awaited<ReturnType<typeof startTestSandbox>>;
let server: Server;
let port: number;
let orgA: string;
let orgB: string;
let roleReads = 0;
let catalogDown = false;

const people: Record<string, string[]> = {
  admin: ['console-admins'],
  manager: ['su-managers'],
  operator: ['org-operators'],
};
let policy: ReturnType<typeof parsePolicy>;

const principalOf = (who: string): Principal => {
  const groups = people[who] ?? [];
  return {
    method: 'oidc',
    subject: who,
    name: who,
    email: null,
    groups,
    roles: rolesFor(policy, { via: 'oidc', groups }),
  };
};

beforeAll(async () => {
  sandbox = await startTestSandbox();
  const orgs = (await sandbox.api.get('/v3/enterprise/organizations?first=2')).body.items as Array<{ org_id: string }>;
  orgA = orgs[0]!.org_id;
  orgB = orgs[1]!.org_id;
  policy = parsePolicy(
    JSON.stringify({
      roles: {
        'su-manager': { permissions: ['ManageAccountServiceUsers', ...READ_PERMISSIONS] },
        'org-operator': {
          permissions: [
            'ManageOrgServiceUsers',
            'UseAgentSessions',
            'ViewOrgSessions',
            'ViewOrgMembership',
            'ViewOrgMetrics',
          ],
          organizations: [orgA],
        },
      },
      grants: [
        { group: 'console-admins', role: 'admin' },
        { group: 'su-managers', role: 'su-manager' },
        { group: 'org-operators', role: 'org-operator' },
      ],
    }),
    'p.json',
  );
  const client = createUpstreamClient({
    baseUrl: sandbox.url,
    apiKey: ADMIN,
    timeoutMs: 5_000,
    redactor: createRedactor([ADMIN]),
  });
  const upstream = {
    all: ((id, args) => {
      roleReads++;
      if (catalogDown) return Promise.reject(new Error('the API did not answer'));
      return client.all(id, args);
    }) as typeof client.all,
  };
  const catalog: RoleCatalog = createRoleCatalog(upstream, { missRefreshMs: 0 });
  const db = openDb(':memory:');
  migrate(db, activityMigrations);
  const gate = createPolicyGate({
    policy: () => policy,
    activity: createSqliteActivityStore(db),
    now: Date.now,
    roles: catalog,
    log: () => undefined,
  });
  // The console's order: who it is, the gate, then the body forwarded to the API as it came.
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    noteActor(req, 'person', String(req.headers['x-who']), principalOf(String(req.headers['x-who'])));
    void gate.admit(req, res, url.pathname).then(async (ok) => {
      if (!ok) return;
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const answer = await fetch(`${sandbox.url}${url.pathname.slice('/api'.length)}`, {
        method: req.method,
        headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
        body: Buffer.concat(chunks),
      });
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(await answer.text());
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  await sandbox?.stop();
});

/** Sends `body` (JSON text) as `who`; chunked when asked, so the gate reads a body of unknown length. */
function send(who: string, method: string, path: string, body: string, chunked = false) {
  return new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-who': who };
    if (!chunked) headers['content-length'] = String(Buffer.byteLength(body));
    const req = request({ port, host: '127.0.0.1', method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} });
      });
    });
    req.on('error', reject);
    if (chunked) {
      req.write(body.slice(0, 7));
      setTimeout(() => req.end(body.slice(7)), 10);
    } else req.end(body);
  });
}
const create = (who: string, path: string, name: string, role: string, chunked = false) =>
  send(who, 'POST', `/api${path}`, JSON.stringify({ name, role_id: role }), chunked);

describe('role grants through the console', () => {
  it('lets a service-user manager create one with a viewer role, the body reaching the API intact', async () => {
    const made = await create(
      'manager',
      '/v3beta1/enterprise/service-users',
      'Read-only exporter',
      ROLE_IDS.enterpriseViewer,
      true,
    );
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ name: 'Read-only exporter' });
    expect(JSON.stringify(made.body.role_assignments)).toContain(ROLE_IDS.enterpriseViewer);
  });

  it('refuses them an admin role, naming the permissions their console roles lack', async () => {
    const r = await create('manager', '/v3beta1/enterprise/service-users', 'Escalation', ROLE_IDS.enterpriseAdmin);
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({
      type: POLICY_REFUSED_TYPE,
      operation_id: 'serviceUsers.create',
      organization: null,
    });
    const missing = r.body.missing_permissions as string[];
    expect(missing).toEqual(expect.arrayContaining(['ManageBilling', 'ManageOrganizations', 'ManageOrgServiceUsers']));
    expect(missing).not.toContain('ManageAccountServiceUsers');
    expect(r.body.detail).toMatch(
      /console's policy refused serviceUsers\.create: the role Enterprise Admin .*ManageBilling.*across the enterprise/,
    );
    // Nothing was created.
    const list = await sandbox.api.get('/v3/enterprise/members/service-users?first=100');
    expect(JSON.stringify(list.body)).not.toContain('Escalation');
  });

  it('lets an organization-limited role grant an organization role in its organization, not in another', async () => {
    const mine = await create('operator', `/v3beta1/organizations/${orgA}/service-users`, 'Runner', ROLE_IDS.orgMember);
    expect(mine.status).toBe(200);
    const other = await create(
      'operator',
      `/v3beta1/organizations/${orgB}/service-users`,
      'Runner',
      ROLE_IDS.orgMember,
    );
    expect(other).toMatchObject({ status: 403, body: { type: POLICY_REFUSED_TYPE, organization: orgB } });
    // A stronger organization role by the vendor's path of the role change: refused, naming what it lacks there.
    const id = String(mine.body.service_user_id);
    const vendorPath = `/api/v3/enterprise/organizations/${orgA}/members/service-users/${id}`;
    const up = await send('operator', 'PATCH', vendorPath, JSON.stringify({ role_id: ROLE_IDS.orgAdmin }));
    expect(up).toMatchObject({ status: 403, body: { type: POLICY_REFUSED_TYPE, organization: orgA } });
    expect(up.body.detail).toContain(`in organization ${orgA}`);
    // An enterprise role is never theirs to grant: their role is limited to an organization.
    const ent = await create(
      'operator',
      `/v3beta1/organizations/${orgA}/service-users`,
      'X',
      ROLE_IDS.enterpriseMember,
    );
    expect(ent).toMatchObject({ status: 403, body: { missing_permissions: ['ViewAccountOrganizations'] } });
  });

  it('lets the admin role grant without reading the roles', async () => {
    const before = roleReads;
    const r = await create('admin', '/v3beta1/enterprise/service-users', 'Billing exporter', ROLE_IDS.billingAdmin);
    expect(r.status).toBe(200);
    expect(roleReads).toBe(before);
  });

  it('refuses a grant it cannot check: roles unreadable, unknown role, body unreadable', async () => {
    catalogDown = true;
    try {
      // The cached list answers while fresh; a role it does not hold reads again, and that read fails.
      const r = await create('manager', '/v3beta1/enterprise/service-users', 'Later', 'role-made-a-moment-ago');
      expect(r).toMatchObject({ status: 503, body: { type: POLICY_REFUSED_TYPE } });
      expect(r.body.detail).toMatch(/roles could not be checked/);
    } finally {
      catalogDown = false;
    }
    const reads = roleReads;
    const unknown = await create('manager', '/v3beta1/enterprise/service-users', 'X', 'role-nobody-knows');
    expect(unknown).toMatchObject({ status: 403, body: { permission: 'admin' } });
    expect(roleReads - reads).toBeLessThanOrEqual(1);
    const notJson = await send('manager', 'POST', '/api/v3beta1/enterprise/service-users', '{"role_id": ');
    expect(notJson).toMatchObject({ status: 403, body: { type: POLICY_REFUSED_TYPE } });
  });
});

describe('which operations grant roles', () => {
  it('finds every write whose body names a role, by the spec path and every alternate', () => {
    const shapeOf = (body: unknown) => (body as { shape?: Record<string, unknown> } | undefined)?.shape ?? {};
    const withRole = [...operationList, ...consoleOperationList].filter(
      (op) => op.method !== 'GET' && Object.keys(shapeOf(op.body)).some((k) => /role/.test(k)),
    );
    expect(withRole.length).toBeGreaterThanOrEqual(14);
    for (const op of withRole) {
      // Every role field a body has is one the policy reads.
      for (const k of Object.keys(shapeOf(op.body)).filter((key) => /role/.test(key))) {
        expect(ROLE_ID_FIELDS as readonly string[], `${op.id}.${k}`).toContain(k);
      }
      const paths = 'alternates' in op && op.alternates ? [op.path, ...op.alternates] : [op.path];
      for (const p of paths) {
        const concrete = p.replace(/\{(\w+)\}/g, (_, n: string) => `x-${n}`);
        const found = operationOf(op.method, p.startsWith('/console') ? concrete : `/api${concrete}`);
        expect(found?.roleFields, `${op.id} ${p}`).toBeDefined();
      }
    }
  });
});

describe('the role catalog', () => {
  it('reads the roles once a minute, shares a read in progress, and reads again once for a role it lacks', async () => {
    let t = 0;
    let reads = 0;
    let fail = false;
    const roles = [{ role_id: 'r1', role_name: 'One', role_type: 'org', permissions: ['ViewOrgSessions'] }];
    const all = (() => {
      reads++;
      return fail ? Promise.reject(new Error('down')) : Promise.resolve(roles);
    }) as Parameters<typeof createRoleCatalog>[0]['all'];
    const catalog = createRoleCatalog({ all }, { now: () => t });
    const [a, b] = await Promise.all([catalog.find('r1'), catalog.find('r1')]);
    expect(a).toEqual({ id: 'r1', name: 'One', type: 'org', permissions: ['ViewOrgSessions'] });
    expect(b).toEqual(a);
    expect(reads).toBe(1);
    t += 59_000;
    await catalog.find('r1');
    expect(reads).toBe(1);
    // A role it lacks: one fresh read, then none again for a few seconds whatever is asked.
    t += 500;
    expect(await catalog.find('r2')).toBeNull();
    expect(await catalog.find('r3')).toBeNull();
    expect(reads).toBe(2);
    t += 61_000;
    fail = true;
    await expect(catalog.find('r1')).rejects.toThrow(/could not be read: down/);
  });
});
