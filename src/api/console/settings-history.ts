/**
 * The console's guarded settings endpoints (`/console/settings/...`) and their history: organizations, ACU
 * limits, org group limits, allowed session tags, the roles of members and service users, and the roles of IdP
 * groups. Each change made through here reads the live value, applies it upstream and records who made it with
 * the value before and after; when the value read differs from the last one recorded, the difference is shown as
 * a gap, "changed outside the console". Restore applies a past value again through the same path, where the API
 * allows it (a deleted organization cannot come back).
 *
 * `settingChanges` is shared by the server (which stores the diff) and the screens (which show it), so both say
 * the same thing.
 */
import { z } from 'zod';
import { OrgId, queryArray, queryInt, UnixSeconds } from '../conventions';
import { AcuLimitValue, OrganizationCreateBody, OrganizationUpdateBody } from '../operations/organizations';
import { AllowedTagsBody } from '../operations/org-tags';
import { OrgGroupsBody } from '../operations/org-group-limits';
import { Tag } from '../operations/sessions';
import { defineConsoleOperations } from './define';
import { madeByFields } from './session';

// ---------------------------------------------------------------- the settings

/**
 * What is kept, by kind, and its key:
 *   - `organization` (org id): `{ name, max_session_acu_limit }`, null once the organization is gone;
 *   - `acu-limit` (`enterprise` or an org id): `{ cycle_acu_limit }` (null: no limit);
 *   - `org-group-limits` (`enterprise`): `{ groups }`, the API's configuration;
 *   - `org-tags` (org id): `{ tags, default_tag }` (tags sorted);
 *   - `roles` (`user:<id>@<level>` or `service-user:<id>@<level>`, level `enterprise` or an org id): `{ role_id }`
 *     (null: no role there), null once the principal is gone;
 *   - `idp-group-roles` (`<level>@<group name>`): `{ role_id }`.
 */
export const SETTING_KINDS = [
  'organization',
  'acu-limit',
  'org-group-limits',
  'org-tags',
  'roles',
  'idp-group-roles',
] as const;
export type SettingKind = (typeof SETTING_KINDS)[number];

/** How each kind reads in a history. */
export const SETTING_KIND_LABELS: Record<SettingKind, string> = {
  organization: 'Organization',
  'acu-limit': 'ACU limit',
  'org-group-limits': 'Org group limits',
  'org-tags': 'Session tags',
  roles: 'Role',
  'idp-group-roles': 'IdP group role',
};

/** A JSON value as stored (objects, arrays, strings, numbers, booleans, null). */
export type SettingValue = null | boolean | number | string | SettingValue[] | { [k: string]: SettingValue };

/** One difference between two values: a field that changed, or one entry of a list added (before null) or removed. */
export interface SettingChange {
  path: string[];
  before: SettingValue;
  after: SettingValue;
}

const isObject = (v: unknown): v is Record<string, SettingValue> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isScalar = (v: unknown) => v === null || typeof v !== 'object';

/**
 * What turns `before` into `after`, field by field: objects are compared key by key, lists of plain values as
 * sets (each entry added or removed), anything else as a whole. A value that did not exist (null) has no fields.
 */
export function settingChanges(before: SettingValue | undefined, after: SettingValue | undefined): SettingChange[] {
  const out: SettingChange[] = [];
  const walk = (a: SettingValue | undefined, b: SettingValue | undefined, path: string[]) => {
    if (out.length >= 500) return;
    if (isObject(a) || isObject(b)) {
      if (isObject(a) && isObject(b)) {
        const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
        for (const k of keys) walk(a[k], b[k], [...path, k]);
        return;
      }
      if ((a === null || a === undefined) && isObject(b)) return walk({}, b, path);
      if (isObject(a) && (b === null || b === undefined)) return walk(a, {}, path);
    }
    const listA = Array.isArray(a) ? a : a === undefined || a === null ? [] : null;
    const listB = Array.isArray(b) ? b : b === undefined || b === null ? [] : null;
    if ((Array.isArray(a) || Array.isArray(b)) && listA && listB && [...listA, ...listB].every(isScalar)) {
      const inA = new Set(listA.map((x) => JSON.stringify(x)));
      const inB = new Set(listB.map((x) => JSON.stringify(x)));
      for (const x of listB) if (!inA.has(JSON.stringify(x))) out.push({ path, before: null, after: x });
      for (const x of listA) if (!inB.has(JSON.stringify(x))) out.push({ path, before: x, after: null });
      return;
    }
    const na = a ?? null;
    const nb = b ?? null;
    if (JSON.stringify(na) !== JSON.stringify(nb)) out.push({ path, before: na, after: nb });
  };
  walk(before, after, []);
  return out;
}

/** Whether two stored values are the same setting (lists of plain values compare as sets). */
export const sameSetting = (a: SettingValue | undefined, b: SettingValue | undefined) =>
  (a === null || a === undefined) === (b === null || b === undefined) && settingChanges(a, b).length === 0;

// ---------------------------------------------------------------- answers

const Json: z.ZodType<SettingValue> = z.lazy(() =>
  z.union([z.null(), z.boolean(), z.number(), z.string(), z.array(Json), z.record(z.string(), Json)]),
);

export const SettingChangeSchema = z.object({ path: z.array(z.string()), before: Json, after: Json });

/** Whether a value of a revision can be applied again, and why not. */
export const Restorable = z.object({ allowed: z.boolean(), reason: z.string().nullable() });
export type Restorable = z.infer<typeof Restorable>;

export const SETTING_ORIGINS = ['console', 'outside'] as const;
export const SETTING_STATUSES = ['applying', 'applied', 'failed'] as const;

/**
 * One entry of a setting's history. `origin: "outside"` is a gap: the value differed from the last one the
 * console recorded, so it was changed elsewhere (who and when unknown); `revision_id` null marks one found just
 * now, when the history was read, and not stored.
 */
export const SettingRevision = z.looseObject({
  revision_id: z.number().int().nullable(),
  kind: z.enum(SETTING_KINDS),
  key: z.string(),
  /** What the setting is, with names: "Platform team", "carmen@example.com in Platform team". */
  label: z.string(),
  created_at: UnixSeconds,
  origin: z.enum(SETTING_ORIGINS),
  action: z.string(),
  status: z.enum(SETTING_STATUSES),
  restored_from: z.number().int().nullable(),
  /** The value before and after (null: it did not exist); `after_known` false when it could not be read. */
  before: Json,
  after: Json,
  after_known: z.boolean(),
  changes: z.array(SettingChangeSchema),
  /** Names of the ids the values hold (organizations, roles), as they were when recorded. */
  names: z.record(z.string(), z.string()),
  error: z.string().nullable(),
  restore_before: Restorable,
  restore_after: Restorable,
  ...madeByFields,
});
export type SettingRevision = z.infer<typeof SettingRevision>;

export const SettingRevisionPage = z.object({
  items: z.array(SettingRevision),
  end_cursor: z.string().nullish(),
  has_next_page: z.boolean(),
  total: z.number().int().nullish(),
});
export type SettingRevisionPage = z.infer<typeof SettingRevisionPage>;

/** What a guarded change answers: the API's answer to it and the revisions it recorded (gaps first). */
export const SettingChangeResult = z.looseObject({
  result: z.unknown(),
  revisions: z.array(SettingRevision),
  unchanged: z.boolean(),
});
export type SettingChangeResult = z.infer<typeof SettingChangeResult>;

// ---------------------------------------------------------------- requests

/** A level of a role: `enterprise`, or an organization. */
export const RoleLevel = z.union([z.literal('enterprise'), OrgId], {
  message: 'level is "enterprise" or an organization id',
});

export const ROLE_PRINCIPAL_TYPES = ['user', 'service-user', 'idp-group'] as const;
export type RolePrincipalType = (typeof ROLE_PRINCIPAL_TYPES)[number];

/** PUT /console/settings/roles: the role a principal holds at one level (role_id null: none there). */
export const SetRoleRequest = z.strictObject({
  principal_type: z.enum(ROLE_PRINCIPAL_TYPES),
  principal_id: z.string().min(1, 'principal_id is required').max(256),
  level: RoleLevel,
  role_id: z.string().min(1).max(200).nullable(),
});
export type SetRoleRequest = z.input<typeof SetRoleRequest>;

/** PUT /console/settings/acu-limits/{level}: a whole number of ACUs, or null for no limit. */
export const SetAcuLimitRequest = z.strictObject({
  cycle_acu_limit: AcuLimitValue('cycle_acu_limit').nullable(),
});

/** POST /console/settings/organizations/{org_id}/tags: one change of the allowed tags or the default tag. */
export const TagChangeRequest = z.discriminatedUnion('mode', [
  z.strictObject({ mode: z.literal('append'), tags: AllowedTagsBody.shape.tags }),
  z.strictObject({ mode: z.literal('replace'), tags: AllowedTagsBody.shape.tags }),
  z.strictObject({ mode: z.literal('remove'), tag: Tag }),
  z.strictObject({ mode: z.literal('clear') }),
  z.strictObject({ mode: z.literal('default'), tag: Tag.nullable() }),
]);
export type TagChangeRequest = z.input<typeof TagChangeRequest>;

export const SettingsHistoryQuery = z.object({
  kind: queryArray(z.enum(SETTING_KINDS, { message: `kind is one of ${SETTING_KINDS.join(', ')}` })),
  /** One setting's key (exact), or a prefix of keys (`user:` for every member's roles). */
  key: z.string().max(300).optional(),
  key_prefix: z.string().max(300).optional(),
  first: queryInt({ min: 1, max: 100, name: 'first' }).default(25),
  after: z
    .string()
    .regex(/^\d{1,12}$/, 'after must be an end_cursor of this list')
    .transform(Number)
    .optional(),
});
export type SettingsHistoryQuery = z.input<typeof SettingsHistoryQuery>;

export const SETTINGS_HISTORY_PAGE_SIZE = 25;

const RevisionNumber = z
  .string()
  .regex(/^\d{1,12}$/, 'Not a revision number')
  .transform(Number);

const OrgParams = z.object({ org_id: OrgId });
const BASE = '/console/settings';

export const consoleSettingsHistoryOperations = defineConsoleOperations({
  'console.settings.organizations.create': {
    id: 'console.settings.organizations.create',
    method: 'POST',
    permission: 'ManageOrganizations',
    path: `${BASE}/organizations`,
    summary: 'Create an organization, recorded in its history (a name in use: 409 with the error on name)',
    body: OrganizationCreateBody,
    response: SettingChangeResult,
  },
  'console.settings.organizations.update': {
    id: 'console.settings.organizations.update',
    method: 'PATCH',
    permission: 'ManageOrganizations',
    path: `${BASE}/organizations/{org_id}`,
    summary: 'Rename an organization or change its ACU limits, recorded with the values before and after',
    params: OrgParams,
    body: OrganizationUpdateBody,
    response: SettingChangeResult,
  },
  'console.settings.organizations.delete': {
    id: 'console.settings.organizations.delete',
    method: 'DELETE',
    permission: 'ManageOrganizations',
    path: `${BASE}/organizations/{org_id}`,
    summary: 'Delete an organization, recorded in its history (it cannot be restored)',
    params: OrgParams,
    response: SettingChangeResult,
  },
  'console.settings.acuLimits.set': {
    id: 'console.settings.acuLimits.set',
    method: 'PUT',
    permission: 'ManageBilling',
    organization: { param: 'level' },
    path: `${BASE}/acu-limits/{level}`,
    summary: "Set or remove (null) the enterprise's or an organization's ACU limit per billing cycle",
    params: z.object({ level: RoleLevel }),
    body: SetAcuLimitRequest,
    response: SettingChangeResult,
  },
  'console.settings.orgGroupLimits.replace': {
    id: 'console.settings.orgGroupLimits.replace',
    method: 'PUT',
    permission: 'ManageOrganizations',
    path: `${BASE}/org-group-limits`,
    summary: 'Replace the org group limits, recorded with the configuration before and after',
    body: OrgGroupsBody,
    response: SettingChangeResult,
  },
  'console.settings.orgTags.change': {
    id: 'console.settings.orgTags.change',
    method: 'POST',
    permission: 'ManageOrganizations',
    path: `${BASE}/organizations/{org_id}/tags`,
    summary: "Change an organization's allowed session tags or default tag, recorded before and after",
    params: OrgParams,
    body: TagChangeRequest,
    response: SettingChangeResult,
  },
  'console.settings.roles.set': {
    id: 'console.settings.roles.set',
    method: 'PUT',
    permission: 'admin',
    organization: { body: 'level' },
    path: `${BASE}/roles`,
    summary:
      'Give a member, service user or IdP group a role at one level, change it or remove it (role_id null), recorded before and after',
    body: SetRoleRequest,
    response: SettingChangeResult,
  },
  'console.settings.history.list': {
    id: 'console.settings.history.list',
    method: 'GET',
    permission: null,
    path: `${BASE}/history`,
    summary:
      'The history of settings changed through the console, newest first, with gaps where they were changed elsewhere',
    query: SettingsHistoryQuery,
    response: SettingRevisionPage,
  },
  'console.settings.history.get': {
    id: 'console.settings.history.get',
    method: 'GET',
    permission: null,
    path: `${BASE}/history/{revision_id}`,
    summary: 'One entry of the settings history',
    params: z.object({ revision_id: RevisionNumber }),
    response: SettingRevision,
  },
  'console.settings.history.restore': {
    id: 'console.settings.history.restore',
    method: 'POST',
    permission: 'admin',
    path: `${BASE}/history/{revision_id}/restore`,
    summary: "Apply an entry's value before (default) or after it again, where the API allows it",
    params: z.object({ revision_id: RevisionNumber }),
    body: z.strictObject({ set: z.enum(['before', 'after']).default('before') }),
    response: SettingChangeResult,
  },
});

/** The browser's query keys of the settings history (every screen that changes a setting refreshes them). */
export { settingsHistoryKeys } from './settings-history-keys';
