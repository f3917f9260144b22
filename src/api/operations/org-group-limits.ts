/**
 * Org group limits (spec: further operations, `ManageOrganizations`, "requires enablement by the account team";
 * shapes from the vendor reference: OrgGroupsConfig, OrgGroupConfig). A group names a set of organizations that
 * share an optional maximum of ACUs per billing cycle. PUT replaces the whole configuration.
 *
 * Rules (the console's choice where the reference is silent): group names are 1–100 characters after trimming;
 * at most 100 groups; an organization belongs to at most one group (422 naming it and both groups); an unknown
 * organization answers 422 naming it (it is a value of the body, not a path); `max_cycle_acus` is a whole number
 * 0 or more, or null for no limit. Without enablement, both operations answer 403 with
 * `reason: "org_group_limits_not_enabled"`.
 */
import { z } from 'zod';
import { OrgId } from '../conventions';
import { defineOperations } from './define';
import { AcuLimitValue } from './organizations';

export const ORG_GROUP_LIMITS = { groups: 100, name: 100, orgsPerGroup: 1_000 } as const;

export const OrgGroup = z.looseObject({
  org_ids: z.array(z.string()),
  max_cycle_acus: z.number().int().nullish(),
});
export const OrgGroupsConfig = z.looseObject({ groups: z.record(z.string(), OrgGroup) });
export type OrgGroupsConfig = z.infer<typeof OrgGroupsConfig>;

const OrgGroupBody = z.strictObject({
  org_ids: z
    .array(OrgId, { message: 'org_ids is required: the organizations of the group' })
    .max(ORG_GROUP_LIMITS.orgsPerGroup, `a group holds at most ${ORG_GROUP_LIMITS.orgsPerGroup} organizations`)
    .superRefine((ids, ctx) => {
      const seen = new Set<string>();
      ids.forEach((id, i) => {
        if (seen.has(id)) ctx.addIssue({ code: 'custom', path: [i], message: `${id} is listed twice in this group` });
        seen.add(id);
      });
    }),
  max_cycle_acus: AcuLimitValue('max_cycle_acus').nullish(),
});

export const OrgGroupsBody = z
  .strictObject({
    groups: z.record(z.string(), OrgGroupBody, { message: 'groups is required: an object of group name to group' }),
  })
  .superRefine((body, ctx) => {
    const names = Object.keys(body.groups);
    if (names.length > ORG_GROUP_LIMITS.groups) {
      ctx.addIssue({ code: 'custom', path: ['groups'], message: `at most ${ORG_GROUP_LIMITS.groups} groups` });
    }
    const trimmed = new Map<string, string>();
    const owner = new Map<string, string>();
    for (const name of names) {
      const t = name.trim();
      if (t === '') ctx.addIssue({ code: 'custom', path: ['groups', name], message: 'a group name must not be empty' });
      else if (t.length > ORG_GROUP_LIMITS.name) {
        ctx.addIssue({
          code: 'custom',
          path: ['groups', name],
          message: `a group name is at most ${ORG_GROUP_LIMITS.name} characters`,
        });
      } else if (trimmed.has(t)) {
        ctx.addIssue({ code: 'custom', path: ['groups', name], message: `the group name "${t}" is given twice` });
      }
      trimmed.set(t, name);
      body.groups[name]!.org_ids.forEach((orgId, i) => {
        const other = owner.get(orgId);
        if (other !== undefined && other !== name) {
          ctx.addIssue({
            code: 'custom',
            path: ['groups', name, 'org_ids', i],
            message: `organization ${orgId} is already in group "${other}": an organization belongs to at most one group`,
          });
        } else owner.set(orgId, name);
      });
    }
  })
  .transform((body) => ({
    groups: Object.fromEntries(Object.entries(body.groups).map(([name, g]) => [name.trim(), g])),
  }));
export type OrgGroupsBody = z.input<typeof OrgGroupsBody>;

const PATH = '/v3/enterprise/org-group-limits';

export const orgGroupLimitOperations = defineOperations({
  'orgGroupLimits.get': {
    id: 'orgGroupLimits.get',
    method: 'GET',
    path: PATH,
    permission: 'ManageOrganizations',
    scope: 'enterprise',
    summary: 'The org group limits: group name → organizations and their shared ACU maximum per billing cycle',
    response: OrgGroupsConfig,
    note: 'Requires enablement by the account team: 403 with reason org_group_limits_not_enabled otherwise (console choice of status).',
  },
  'orgGroupLimits.replace': {
    id: 'orgGroupLimits.replace',
    method: 'PUT',
    path: PATH,
    permission: 'ManageOrganizations',
    scope: 'enterprise',
    summary: 'Replace the whole org group limits configuration',
    body: OrgGroupsBody,
    response: OrgGroupsConfig,
    note: 'An organization in two groups, an empty group name, or an unknown organization answer 422 naming it. Requires enablement (403 otherwise).',
  },
});
