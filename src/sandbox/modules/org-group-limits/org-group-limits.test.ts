/**
 * Org group limits over HTTP: the seeded configuration, PUT replacing it, the 422s (an organization in two
 * groups, empty names, unknown organizations, bad limits), enablement (store setting and
 * SANDBOX_ORG_GROUP_LIMITS=off), organization deletion, the permission and the audit trail.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { OrgGroupsConfig } from '../../../api/operations/org-group-limits';
import { VIEWER, startTestSandbox } from '../../../test/harness';
import { orgGroupLimitsEnabled, setOrgGroupLimitsEnabled } from './index';

let sb: Awaited<ReturnType<typeof startTestSandbox>>;
let orgIds: string[];
const PATH = '/v3/enterprise/org-group-limits';
const put = (body: unknown, token?: string) => sb.api.call('PUT', PATH, { body, token });
const locs = (res: { body: { errors: { loc: unknown[]; msg: string }[] } }) =>
  res.body.errors.map((e) => `${e.loc.join('.')}: ${e.msg}`);

beforeAll(async () => {
  sb = await startTestSandbox({ tickMs: 60_000 });
  orgIds = (await sb.api.get('/v3/enterprise/organizations?first=200')).body.items.map(
    (o: { org_id: string }) => o.org_id,
  );
});
afterAll(() => sb.stop());
afterEach(() => {
  setOrgGroupLimitsEnabled(sb.db, true);
  delete process.env.SANDBOX_ORG_GROUP_LIMITS;
});

describe('read and replace', () => {
  it('is seeded with groups of known organizations, each organization in at most one group', async () => {
    const res = await sb.api.get(PATH);
    expect(res.status).toBe(200);
    const groups = Object.values((res.body as OrgGroupsConfig).groups);
    expect(groups.length).toBeGreaterThanOrEqual(2);
    const all = groups.flatMap((g) => g.org_ids);
    expect(new Set(all).size).toBe(all.length);
    expect(all.every((id) => orgIds.includes(id))).toBe(true);
    expect(groups.some((g) => g.max_cycle_acus === null)).toBe(true);
  });

  it('replaces the whole configuration (names trimmed) and writes an audit entry', async () => {
    const body = {
      groups: { ' EMEA ': { org_ids: [orgIds[0], orgIds[1]], max_cycle_acus: 9000 }, Empty: { org_ids: [] } },
    };
    const res = await put(body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      groups: {
        EMEA: { org_ids: [orgIds[0], orgIds[1]], max_cycle_acus: 9000 },
        Empty: { org_ids: [], max_cycle_acus: null },
      },
    });
    expect((await sb.api.get(PATH)).body).toEqual(res.body);
    const audit = sb.db.prepare('SELECT * FROM audit_logs ORDER BY rowid DESC LIMIT 1').get() as {
      action: string;
      service_user_name: string;
      data: string;
    };
    expect(audit.action).toBe('update_org_group_limits');
    expect(audit.service_user_name).toBeTruthy();
    expect(Object.keys(JSON.parse(audit.data).previous_groups).length).toBeGreaterThan(0);
    expect((await put({ groups: {} })).body).toEqual({ groups: {} });
  });

  it('answers 422 naming an organization in two groups, an empty name, an unknown organization, a bad limit', async () => {
    const twice = await put({ groups: { A: { org_ids: [orgIds[0]] }, B: { org_ids: [orgIds[1], orgIds[0]] } } });
    expect(twice.status).toBe(422);
    expect(locs(twice).join('\n')).toContain(
      `body.groups.B.org_ids.1: organization ${orgIds[0]} is already in group "A"`,
    );
    const empty = await put({ groups: { '  ': { org_ids: [] } } });
    expect(empty.status).toBe(422);
    expect(locs(empty)[0]).toContain('must not be empty');
    const unknown = await put({ groups: { A: { org_ids: ['org-doesnotexist'] } } });
    expect(unknown.status).toBe(422);
    expect(locs(unknown)[0]).toBe('body.groups.A.org_ids.0: organization org-doesnotexist was not found');
    for (const max of [-1, 2.5, '10']) {
      expect((await put({ groups: { A: { org_ids: [], max_cycle_acus: max } } })).status).toBe(422);
    }
    expect((await put({ groups: { A: { org_ids: [orgIds[0], orgIds[0]] } } })).status).toBe(422);
    expect((await put({})).status).toBe(422);
  });

  it('takes a deleted organization out of its group', async () => {
    const org = (await sb.api.call('POST', '/v3/enterprise/organizations', { body: { name: 'Short lived' } })).body;
    expect((await put({ groups: { G: { org_ids: [orgIds[0], org.org_id] } } })).status).toBe(200);
    expect((await sb.api.call('DELETE', `/v3/enterprise/organizations/${org.org_id}`)).status).toBe(200);
    expect((await sb.api.get(PATH)).body.groups.G.org_ids).toEqual([orgIds[0]]);
  });
});

describe('enablement', () => {
  it('answers 403 saying the feature is not enabled when the store setting is off', async () => {
    setOrgGroupLimitsEnabled(sb.db, false);
    for (const res of [await sb.api.get(PATH), await put({ groups: {} })]) {
      expect(res.status).toBe(403);
      expect(res.body.reason).toBe('org_group_limits_not_enabled');
      expect(res.body.detail).toContain('not enabled');
    }
  });

  it('is off with SANDBOX_ORG_GROUP_LIMITS=off', async () => {
    expect(orgGroupLimitsEnabled(sb.db)).toBe(true);
    process.env.SANDBOX_ORG_GROUP_LIMITS = 'off';
    expect(orgGroupLimitsEnabled(sb.db)).toBe(false);
    expect((await sb.api.get(PATH)).status).toBe(403);
  });

  it('needs ManageOrganizations', async () => {
    const res = await sb.api.get(PATH, VIEWER);
    expect(res.status).toBe(403);
    expect(res.body.detail).toContain('ManageOrganizations');
  });
});
