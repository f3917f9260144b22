/**
 * IdP groups over HTTP: the seeded groups mapped to roles, bulk registration (existing names ignored, 100 at
 * most, all or nothing), delete, the `/v3beta1/` paths beside the contract's `/v3/` ones, and through the proxy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IdpGroup } from '../../../api/operations/idp-groups';
import { ADMIN, VIEWER, startTestConsole, startTestSandbox } from '../../../test/harness';

let sb: Awaited<ReturnType<typeof startTestSandbox>>;

const PATH = '/v3/enterprise/idp-groups';
const BETA = '/v3beta1/enterprise/idp-groups';

async function all(path = PATH): Promise<IdpGroup[]> {
  const out: IdpGroup[] = [];
  let after: string | null = null;
  do {
    const res: { status: number; body: any } = await sb.api.get(`${path}?first=5${after ? `&after=${after}` : ''}`);
    expect(res.status).toBe(200);
    out.push(...res.body.items);
    after = res.body.has_next_page ? res.body.end_cursor : null;
  } while (after);
  return out;
}

const groupCount = () => (sb.db.prepare('SELECT count(*) AS n FROM idp_groups').get() as { n: number }).n;
const register = (names: unknown, path = PATH, token: string = ADMIN) =>
  sb.api.call('POST', path, { token, body: { idp_group_names: names } });

beforeAll(async () => {
  sb = await startTestSandbox({ tickMs: 60_000 });
});
afterAll(() => sb.stop());

describe('seed and list', () => {
  it('lists the groups by name, most mapped to roles at either level, with their member counts', async () => {
    const groups = await all();
    expect(groups.length).toBeGreaterThanOrEqual(10);
    const names = groups.map((g) => g.idp_group_name.toLowerCase());
    expect(names).toEqual([...names].sort());
    expect(groups.some((g) => g.role_assignments!.some((a) => a.org_id == null))).toBe(true);
    expect(groups.some((g) => g.role_assignments!.some((a) => typeof a.org_id === 'string'))).toBe(true);
    expect(groups.some((g) => g.role_assignments!.length === 0)).toBe(true);
    expect(groups.find((g) => g.idp_group_name === 'all-engineering')!.member_count).toBeGreaterThan(50);
  });

  it('answers on the /v3beta1/ path too, the same list', async () => {
    expect((await all(BETA)).map((g) => g.idp_group_name)).toEqual((await all()).map((g) => g.idp_group_name));
  });

  it('needs ManageAccountMembership (the viewer gets 403 naming it)', async () => {
    const res = await sb.api.get(PATH, VIEWER);
    expect(res.status).toBe(403);
    expect(res.body.detail).toContain('ManageAccountMembership permission (enterprise level)');
  });
});

describe('register', () => {
  it('registers new names, ignores existing ones (any letter case) and repeats, answers the new ones', async () => {
    const res = await register(['okta-data-science', 'ALL-ENGINEERING', 'okta-data-science', ' okta-design ']);
    expect(res.status).toBe(200);
    expect(res.body.map((g: IdpGroup) => g.idp_group_name)).toEqual(['okta-data-science', 'okta-design']);
    expect(res.body[0]).toMatchObject({ role_assignments: [], member_count: 0, created_at: expect.any(Number) });
    // All of them already there now: nothing new, not an error.
    const again = await register(['okta-data-science', 'Okta-Design']);
    expect(again.status).toBe(200);
    expect(again.body).toEqual([]);
    const entry = sb.db
      .prepare(`SELECT * FROM audit_logs WHERE action = 'create_idp_groups' ORDER BY rowid DESC LIMIT 1`)
      .get() as { service_user_id: string; data: string };
    expect(entry.service_user_id).toBe('service-user-sandbox-admin');
    expect(JSON.parse(entry.data)).toMatchObject({ count: 0, ignored: 2 });
  });

  it('registers 100 names in one call on the /v3beta1/ path', async () => {
    const names = Array.from({ length: 100 }, (_, i) => `bulk-group-${i}`);
    const res = await register(names, BETA);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(100);
  });

  it.each([
    [
      '101 names',
      Array.from({ length: 101 }, (_, i) => `over-${i}`),
      /At most 100 IdP groups per registration; this request has 101/,
    ],
    ['no names', [], /at least 1 name/],
    ['an empty name among good ones', ['good-1', '  ', 'good-2'], /must not be empty/],
    ['a name with a slash', ['good-3', 'eng/platform'], /no \/ or \\/],
    ['a 257-character name', ['g'.repeat(257)], /at most 256 characters/],
    ['not a list', 'eng', /list of IdP group names/],
  ])('refuses %s with a 422 and registers nothing', async (_what, names, msg) => {
    const before = groupCount();
    const res = await register(names);
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { msg: string }) => e.msg).join('\n')).toMatch(msg);
    expect(groupCount()).toBe(before);
  });

  it('the viewer may not register', async () => {
    expect((await register(['viewer-group'], PATH, VIEWER)).status).toBe(403);
  });
});

describe('delete', () => {
  it('deletes a group with its role mappings and memberships, answering it as it was', async () => {
    const group = (await all()).find((g) => g.idp_group_name === 'finance-ops')!;
    expect(group.role_assignments!.length).toBeGreaterThan(0);
    const member = sb.db
      .prepare(`SELECT user_id FROM idp_group_members WHERE idp_group_name = 'finance-ops' LIMIT 1`)
      .get() as { user_id: string } | undefined;
    const res = await sb.api.call('DELETE', `${PATH}/finance-ops`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ idp_group_name: 'finance-ops', role_assignments: group.role_assignments });
    expect((await all()).map((g) => g.idp_group_name)).not.toContain('finance-ops');
    expect(
      (
        sb.db.prepare(`SELECT count(*) AS n FROM role_assignments WHERE principal_id = 'finance-ops'`).get() as {
          n: number;
        }
      ).n,
    ).toBe(0);
    if (member) {
      const user = await sb.api.get(`/v3/enterprise/members/users/${member.user_id}`);
      expect(user.body.idp_group_names).not.toContain('finance-ops');
    }
    expect((await sb.api.call('DELETE', `${PATH}/finance-ops`)).status).toBe(404);
    expect(
      (sb.db.prepare(`SELECT count(*) AS n FROM audit_logs WHERE action = 'delete_idp_group'`).get() as { n: number })
        .n,
    ).toBeGreaterThanOrEqual(1);
  });

  it('deletes on the /v3beta1/ path, any letter case, names with spaces; 404 for an unknown name', async () => {
    await register(['Design Reviewers']);
    const res = await sb.api.call('DELETE', `${BETA}/${encodeURIComponent('design reviewers')}`);
    expect(res.status).toBe(200);
    expect(res.body.idp_group_name).toBe('Design Reviewers');
    expect((await sb.api.call('DELETE', `${PATH}/no-such-group`)).status).toBe(404);
  });
});

describe('through the console proxy', () => {
  it('forwards the /v3/ and /v3beta1/ paths', async () => {
    const c = await startTestConsole();
    try {
      expect((await c.api.get('/api/v3/enterprise/idp-groups?first=1')).status).toBe(200);
      expect((await c.api.get('/api/v3beta1/enterprise/idp-groups?first=1')).status).toBe(200);
      const created = await c.api.call('POST', '/api/v3beta1/enterprise/idp-groups', {
        body: { idp_group_names: ['via-proxy'] },
      });
      expect(created.status).toBe(200);
      expect((await c.api.call('DELETE', '/api/v3/enterprise/idp-groups/via-proxy')).status).toBe(200);
    } finally {
      await c.close();
    }
  });
});
