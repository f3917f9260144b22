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

const OrgIdsOfGroup = z
  .array(OrgId, { message: 'org_ids is required: the organizations of the group' })
  .max(ORG_GROUP_LIMITS.orgsPerGroup, `a group holds at most ${ORG_GROUP_LIMITS.orgsPerGroup} organizations`)
  .superRefine((ids, ctx) => {
    const seen = new Set<string>();
    ids.forEach((id, i) => {
      if (seen.has(id)) ctx.addIssue({ code: 'custom', path: [i], message: `${id} is listed twice in this group` });
      seen.add(id);
    });
  });

const MaxCycleAcus = AcuLimitValue('Shared ACU maximum per cycle').nullish();

const OrgGroupBody = z.strictObject({ org_ids: OrgIdsOfGroup, max_cycle_acus: MaxCycleAcus });

/**
 * The rules across groups, one function for the body (groups keyed by name) and the console's form (a list
 * of groups): at most 100 groups, names 1–100 characters after trimming and not given twice, an organization
 * in at most one group. `at` says where a group's issues go: its base path, and where its name's go.
 */
function checkOrgGroups(
  groups: ReadonlyArray<{ name: string; org_ids: readonly string[] }>,
  ctx: z.RefinementCtx,
  at: { group: (i: number, name: string) => PropertyKey[]; name: (i: number, name: string) => PropertyKey[] },
): void {
  if (groups.length > ORG_GROUP_LIMITS.groups) {
    ctx.addIssue({ code: 'custom', path: ['groups'], message: `at most ${ORG_GROUP_LIMITS.groups} groups` });
  }
  const names = new Set<string>();
  const owner = new Map<string, string>();
  groups.forEach(({ name, org_ids }, i) => {
    const t = name.trim();
    const issue = (message: string) => ctx.addIssue({ code: 'custom', path: at.name(i, name), message });
    if (t === '') issue('a group name must not be empty');
    else if (t.length > ORG_GROUP_LIMITS.name) issue(`a group name is at most ${ORG_GROUP_LIMITS.name} characters`);
    else if (names.has(t)) issue(`the group name "${t}" is given twice`);
    names.add(t);
    org_ids.forEach((orgId, j) => {
      const other = owner.get(orgId);
      if (other !== undefined && other !== t) {
        ctx.addIssue({
          code: 'custom',
          path: [...at.group(i, name), 'org_ids', j],
          message: `organization ${orgId} is already in group "${other}": an organization belongs to at most one group`,
        });
      } else owner.set(orgId, t);
    });
  });
}

export const OrgGroupsBody = z
  .strictObject({
    groups: z.record(z.string(), OrgGroupBody, { message: 'groups is required: an object of group name to group' }),
  })
  .superRefine((body, ctx) =>
    checkOrgGroups(
      Object.entries(body.groups).map(([name, g]) => ({ name, org_ids: g.org_ids })),
      ctx,
      { group: (_i, name) => ['groups', name], name: (_i, name) => ['groups', name] },
    ),
  )
  .transform((body) => ({
    groups: Object.fromEntries(Object.entries(body.groups).map(([name, g]) => [name.trim(), g])),
  }));
export type OrgGroupsBody = z.input<typeof OrgGroupsBody>;

/**
 * The console's form of the same configuration: a list of named groups (the body's keys become a field), held
 * to the same rules by the same function, so each issue lands on the group's own fields.
 */
export const OrgGroupsForm = z
  .object({
    groups: z.array(
      z.object({
        name: z.string().max(ORG_GROUP_LIMITS.name, `a group name is at most ${ORG_GROUP_LIMITS.name} characters`),
        org_ids: OrgIdsOfGroup,
        max_cycle_acus: MaxCycleAcus,
      }),
    ),
  })
  .superRefine(
    (v, ctx) => checkOrgGroups(v.groups, ctx, { group: (i) => ['groups', i], name: (i) => ['groups', i, 'name'] }),
    // Also while a maximum is wrong, so every problem of the form shows at once.
    { when: ({ value }) => isGroupList((value as { groups?: unknown } | null)?.groups) },
  );

function isGroupList(groups: unknown): boolean {
  return (
    Array.isArray(groups) &&
    groups.every((g: { name?: unknown; org_ids?: unknown } | null) => {
      const ids = g?.org_ids;
      return typeof g?.name === 'string' && Array.isArray(ids) && ids.every((id) => typeof id === 'string');
    })
  );
}
export type OrgGroupsForm = z.input<typeof OrgGroupsForm>;

/** The body of the form's groups (names trimmed; no maximum: null). */
export function orgGroupsBodyOf(form: OrgGroupsForm): OrgGroupsBody {
  return {
    groups: Object.fromEntries(
      form.groups.map((g) => [g.name.trim(), { org_ids: [...g.org_ids], max_cycle_acus: g.max_cycle_acus ?? null }]),
    ),
  };
}

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
