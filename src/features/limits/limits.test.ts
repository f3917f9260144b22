/**
 * The limits screens' rules: the inline ACU limit box (whole numbers 0 or more, empty = remove), the group
 * form's schema (the contract's rules, on the form's own fields) and where the API's group errors land.
 */
import { describe, expect, it } from 'vitest';
import { OrgGroupsBody, OrgGroupsForm, orgGroupsBodyOf } from '@/api/operations/org-group-limits';
import { OrganizationCreateBody, OrganizationUpdateBody } from '@/api/operations/organizations';
import { readLimit } from './acu-limits-table';
import { formValuesOf, toFormLoc } from './group-limits-form';

const paths = (r: { success: boolean; error?: { issues: Array<{ path: PropertyKey[] }> } }) =>
  r.success ? [] : r.error!.issues.map((i) => i.path.join('.'));

describe('the inline ACU limit', () => {
  it('takes a whole number 0 or more; empty removes the limit', () => {
    expect(readLimit('12345')).toEqual({ value: 12345 });
    expect(readLimit(' 0 ')).toEqual({ value: 0 });
    expect(readLimit('')).toEqual({ value: null });
  });
  it('refuses negative, fractional, too large and non-numeric values, naming the rule', () => {
    expect(readLimit('-1')).toEqual({ error: expect.stringMatching(/0 or more/) });
    expect(readLimit('1.5')).toEqual({ error: expect.stringMatching(/whole number/) });
    expect(readLimit('2000000000')).toEqual({ error: expect.stringMatching(/at most/) });
    expect(readLimit('ten')).toEqual({ error: expect.stringMatching(/whole number/) });
  });
});

describe('organization limits in the contract', () => {
  it('refuses a session limit above the cycle limit, on the session limit', () => {
    const create = OrganizationCreateBody.safeParse({ name: 'A', max_cycle_acu_limit: 10, max_session_acu_limit: 11 });
    expect(paths(create)).toEqual(['max_session_acu_limit']);
    const update = OrganizationUpdateBody.safeParse({ max_cycle_acu_limit: 5, max_session_acu_limit: 6 });
    expect(paths(update)).toEqual(['max_session_acu_limit']);
    expect(OrganizationUpdateBody.safeParse({ max_cycle_acu_limit: 5, max_session_acu_limit: 5 }).success).toBe(true);
    expect(OrganizationUpdateBody.safeParse({ max_cycle_acu_limit: null, max_session_acu_limit: 6 }).success).toBe(
      true,
    );
  });
});

describe('the org group form', () => {
  const group = (name: string, org_ids: string[], max_cycle_acus?: number) => ({ name, org_ids, max_cycle_acus });

  it('refuses an organization in two groups on the second group, an empty or repeated name, a bad maximum', () => {
    const r = OrgGroupsForm.safeParse({
      groups: [
        group('Revenue', ['org-a', 'org-b']),
        group('Platform', ['org-c', 'org-a']),
        group('  ', []),
        group('Revenue ', [], -1),
      ],
    });
    expect(paths(r).sort()).toEqual(
      ['groups.1.org_ids.1', 'groups.2.name', 'groups.3.name', 'groups.3.max_cycle_acus'].sort(),
    );
    const message = r.error!.issues.find((i) => i.path.join('.') === 'groups.1.org_ids.1')!.message;
    expect(message).toContain('already in group "Revenue"');
  });

  it('turns into the body the API takes, which the same rules accept', () => {
    const values = { groups: [group(' Revenue ', ['org-a'], 100), group('Pool', ['org-b'])] };
    expect(OrgGroupsForm.safeParse(values).success).toBe(true);
    const body = orgGroupsBodyOf(values);
    expect(body).toEqual({
      groups: {
        Revenue: { org_ids: ['org-a'], max_cycle_acus: 100 },
        Pool: { org_ids: ['org-b'], max_cycle_acus: null },
      },
    });
    expect(OrgGroupsBody.safeParse(body).success).toBe(true);
    expect(formValuesOf({ groups: body.groups as never })).toEqual({
      groups: [group('Revenue', ['org-a'], 100), group('Pool', ['org-b'])],
    });
  });

  it("puts the API's errors (groups by name) on the form's fields (groups by position)", () => {
    const names = ['Revenue', 'Platform '];
    expect(toFormLoc(['body', 'groups', 'Platform', 'org_ids', 1], names)).toEqual(['body', 'groups', 1, 'org_ids', 1]);
    expect(toFormLoc(['body', 'groups', 'Revenue'], names)).toEqual(['body', 'groups', 0, 'name']);
    expect(toFormLoc(['body', 'groups', 'Unknown', 'org_ids', 0], names)).toEqual([
      'body',
      'groups',
      'Unknown',
      'org_ids',
      0,
    ]);
  });
});

describe('group limits without enablement', () => {
  it('tells the 403 "not enabled" apart from a missing permission', async () => {
    const { ApiError } = await import('@/lib/api-error');
    const { isNotEnabled } = await import('./group-limits-form');
    const notEnabled = new ApiError(403, {
      type: 'about:blank',
      title: 'Forbidden',
      status: 403,
      detail: 'Org group limits are not enabled for this enterprise',
      reason: 'org_group_limits_not_enabled',
    } as never);
    const missing = new ApiError(403, {
      type: 'about:blank',
      title: 'Forbidden',
      status: 403,
      detail: 'Requires the ManageOrganizations permission',
    } as never);
    expect(isNotEnabled(notEnabled)).toBe(true);
    expect(isNotEnabled(missing)).toBe(false);
  });
});
