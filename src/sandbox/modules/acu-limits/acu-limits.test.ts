/**
 * Agent ACU limits over HTTP: the seeded list (enterprise, organizations, users) and its paging, setting and
 * removing the enterprise and an organization's limit (204), validation (422), unknown organizations (404), the
 * agreement with the organization's max_cycle_acu_limit, the permission and the audit trail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AcuLimit } from '../../../api/operations/acu-limits';
import type { Organization } from '../../../api/operations/organizations';
import { VIEWER, startTestSandbox } from '../../../test/harness';
import { SEED_ENTERPRISE_ACU_LIMIT } from './index';

let sb: Awaited<ReturnType<typeof startTestSandbox>>;
let orgs: Organization[];
const PATH = '/v3/enterprise/consumption/acu-limits/agent';
const orgPath = (orgId: string) => `${PATH}/organizations/${orgId}`;
const list = async () => (await sb.api.get(`${PATH}?first=200`)).body.items as AcuLimit[];
const lastAudit = () =>
  sb.db.prepare('SELECT * FROM audit_logs ORDER BY rowid DESC LIMIT 1').get() as {
    action: string;
    org_id: string | null;
    service_user_name: string;
    data: string;
  };

beforeAll(async () => {
  sb = await startTestSandbox({ tickMs: 60_000 });
  orgs = (await sb.api.get('/v3/enterprise/organizations?first=200')).body.items;
});
afterAll(() => sb.stop());

describe('list', () => {
  it('holds the enterprise limit first, then organizations with a limit, then users', async () => {
    const items = await list();
    expect(items[0]).toMatchObject({ scope: 'enterprise', cycle_acu_limit: SEED_ENTERPRISE_ACU_LIMIT });
    const scopes = items.map((i) => i.scope);
    expect(scopes.lastIndexOf('enterprise')).toBe(0);
    expect(scopes.indexOf('user')).toBeGreaterThan(scopes.lastIndexOf('org'));
    const orgItems = items.filter((i) => i.scope === 'org');
    expect(orgItems.length).toBe(orgs.filter((o) => o.max_cycle_acu_limit != null).length);
    expect(orgItems.length).toBeGreaterThan(0);
    for (const i of orgItems) {
      expect(i.cycle_acu_limit).toBe(orgs.find((o) => o.org_id === i.org_id)!.max_cycle_acu_limit);
    }
    expect(items.filter((i) => i.scope === 'user').every((i) => typeof i.user_id === 'string')).toBe(true);
  });

  it('pages with a stable cursor', async () => {
    const all = await list();
    const paged: AcuLimit[] = [];
    let after: string | null = null;
    do {
      const res: { body: { items: AcuLimit[]; end_cursor: string | null; has_next_page: boolean } } = await sb.api.get(
        `${PATH}?first=2${after ? `&after=${after}` : ''}`,
      );
      paged.push(...res.body.items);
      after = res.body.has_next_page ? res.body.end_cursor : null;
    } while (after);
    expect(paged).toEqual(all);
  });
});

describe('enterprise limit', () => {
  it('sets and removes it with 204, writing audit entries', async () => {
    const put = await sb.api.call('PUT', PATH, { body: { cycle_acu_limit: 120_000 } });
    expect(put.status).toBe(204);
    expect(put.text).toBe('');
    expect((await list())[0]).toMatchObject({ scope: 'enterprise', cycle_acu_limit: 120_000 });
    const audit = lastAudit();
    expect(audit.action).toBe('update_acu_limit');
    expect(audit.service_user_name).toBeTruthy();
    expect(JSON.parse(audit.data)).toMatchObject({
      scope: 'enterprise',
      cycle_acu_limit: 120_000,
      previous_cycle_acu_limit: SEED_ENTERPRISE_ACU_LIMIT,
    });
    expect((await sb.api.call('PUT', PATH, { body: { cycle_acu_limit: 0 } })).status).toBe(204);
    expect((await sb.api.call('DELETE', PATH)).status).toBe(204);
    expect((await list()).some((i) => i.scope === 'enterprise')).toBe(false);
    expect(lastAudit().action).toBe('delete_acu_limit');
    // Idempotent.
    expect((await sb.api.call('DELETE', PATH)).status).toBe(204);
  });

  it('refuses a negative, fractional or missing limit with 422', async () => {
    for (const body of [{ cycle_acu_limit: -1 }, { cycle_acu_limit: 1.5 }, { cycle_acu_limit: '5' }, {}]) {
      const res = await sb.api.call('PUT', PATH, { body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors[0].loc).toEqual(['body', 'cycle_acu_limit']);
    }
  });
});

describe('organization limit', () => {
  it("sets and removes it; the organization's max_cycle_acu_limit follows", async () => {
    const org = orgs.find((o) => o.max_session_acu_limit == null) ?? orgs[0]!;
    expect((await sb.api.call('PUT', orgPath(org.org_id), { body: { cycle_acu_limit: 7_500 } })).status).toBe(204);
    expect((await sb.api.get(`/v3/enterprise/organizations/${org.org_id}`)).body.max_cycle_acu_limit).toBe(7_500);
    expect((await list()).find((i) => i.org_id === org.org_id)).toMatchObject({
      scope: 'org',
      cycle_acu_limit: 7_500,
    });
    expect(lastAudit()).toMatchObject({ action: 'update_acu_limit', org_id: org.org_id });
    expect((await sb.api.call('DELETE', orgPath(org.org_id))).status).toBe(204);
    expect((await sb.api.get(`/v3/enterprise/organizations/${org.org_id}`)).body.max_cycle_acu_limit).toBeNull();
    expect((await list()).some((i) => i.org_id === org.org_id)).toBe(false);
    expect(lastAudit()).toMatchObject({ action: 'delete_acu_limit', org_id: org.org_id });
  });

  it('answers 404 for an unknown organization and 422 for bad values or one below the session limit', async () => {
    expect((await sb.api.call('PUT', orgPath('org-unknown000'), { body: { cycle_acu_limit: 1 } })).status).toBe(404);
    expect((await sb.api.call('DELETE', orgPath('org-unknown000'))).status).toBe(404);
    const org = orgs[1]!;
    expect((await sb.api.call('PUT', orgPath(org.org_id), { body: { cycle_acu_limit: -3 } })).status).toBe(422);
    await sb.api.call('PATCH', `/v3/enterprise/organizations/${org.org_id}`, {
      body: { max_cycle_acu_limit: null, max_session_acu_limit: 100 },
    });
    const below = await sb.api.call('PUT', orgPath(org.org_id), { body: { cycle_acu_limit: 99 } });
    expect(below.status).toBe(422);
    expect(below.body.detail).toContain('max_session_acu_limit');
  });

  it('needs ManageBilling', async () => {
    expect((await sb.api.get(PATH, VIEWER)).status).toBe(403);
    const res = await sb.api.call('PUT', orgPath(orgs[0]!.org_id), { body: { cycle_acu_limit: 1 }, token: VIEWER });
    expect(res.status).toBe(403);
    expect(res.body.detail).toContain('ManageBilling');
  });
});
