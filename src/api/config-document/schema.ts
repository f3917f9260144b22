/**
 * The enterprise's configuration as code: the document's schema (zod, built from the contract's own field
 * schemas and limits, so the document is held to what the API accepts), its bounds, and the JSON Schema editors
 * complete and check it with (`configDocumentJsonSchema`).
 *
 * Resources are named by stable keys, never by ids, so one document applies to another enterprise: an
 * organization by name, a note by folder path and name, a playbook by title, a schedule by name, a secret by
 * key, a service user by name, an IdP group by name, a git permission by connection name and matcher, a role
 * by its name. A secret's value is never in the document: `value_from_env` names the environment variable it is
 * read from when the apply runs.
 *
 * Sets (organizations, notes, playbooks, schedules, secrets, IdP groups, service users) are "listed" by
 * default: what the document names is created or updated, and what it does not name is left alone. A set written
 * as `{ manage: all, items: [...] }` owns the whole set: live items it does not name are deleted (as with
 * `--prune` for every set). Whole values (allowed tags, git permissions, the IP access list, org group limits)
 * are managed exactly when present and ignored when absent.
 */
import { z } from 'zod';
import { GitPermissionCreateRequest } from '../git-permissions/rules';
import { AcuLimitValue, OrganizationName } from '../operations/organizations';
import { ORG_TAG_LIMITS } from '../operations/org-tags';
import { Tag, TagList } from '../operations/sessions';
import { IpRanges } from '../operations/ip-access-list';
import { ORG_GROUP_LIMITS } from '../operations/org-group-limits';
import { IdpGroupName } from '../operations/idp-groups';
import { KnowledgeNoteBody } from '../operations/knowledge';
import { PlaybookBody } from '../operations/playbooks';
import { CreateScheduleBody } from '../operations/schedules';
import { CreateSecretBody, SECRET_TYPES } from '../operations/secrets';
import { CreateServiceUserBody } from '../operations/service-users';

/** The documented bounds of one document (README: "Configuration as code"). */
export const CONFIG_DOCUMENT_LIMITS = {
  /** Bytes of the document's text. */
  bytes: 1_048_576,
  /** Resources after fragments are expanded (each organization, note, schedule, permission, tag… counts one). */
  resources: 5_000,
  fragments: 100,
  /** Fragments one organization includes. */
  includesPerOrganization: 20,
  /** Errors reported for one document (the rest are counted). */
  errors: 200,
} as const;

export const CONFIG_DOCUMENT_VERSION = 1;

const fmt = (n: number) => n.toLocaleString('en-US');

/** The name of an environment variable a secret's value is read from. */
export const EnvName = z
  .string({ message: 'value_from_env is required: the environment variable holding the value' })
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, 'value_from_env is an environment variable name (letters, digits, _)');

const RoleName = z.string({ message: 'role is the name of a role' }).trim().min(1, 'role must not be empty').max(200);

/** A set: a plain list (the document owns only what it names), or `{ manage: all, items }` (owns the whole set). */
export function setOf<T extends z.ZodType>(item: T, max: number, what: string) {
  const items = z.array(item).max(max, `at most ${fmt(max)} ${what} in one set`);
  return z.union([items, z.strictObject({ manage: z.enum(['all', 'listed']).default('listed'), items })]);
}

// ---------------------------------------------------------------- items

const matcher = GitPermissionCreateRequest.shape;
export const GitPermissionItem = z.strictObject({
  /** The git connection's name as the Git connections screen shows it (its host when it has no name). */
  connection: z.string({ message: 'connection is required: the git connection’s name' }).min(1).max(200),
  repo_path: matcher.repo_path,
  prefix_path: matcher.prefix_path,
  group_prefix: matcher.group_prefix,
  read_only: z.boolean({ message: 'read_only must be true or false' }).optional(),
});
export type GitPermissionItem = z.infer<typeof GitPermissionItem>;

const note = KnowledgeNoteBody.shape;
export const NoteItem = z.strictObject({
  name: note.name,
  /** The folder's path as the Knowledge screen shows it (`/Engineering/Frontend`); `/` or absent: no folder. */
  folder: z.string().max(500).optional(),
  trigger: z.string({ message: 'trigger is required: say when the agent should use this note' }).min(1).max(2_000),
  body: note.body,
  enabled: z.boolean().optional(),
  pinned_repo: note.pinned_repo,
});
export type NoteItem = z.infer<typeof NoteItem>;

const playbook = PlaybookBody.shape;
export const PlaybookItem = z.strictObject({ title: playbook.title, body: playbook.body, macro: playbook.macro });
export type PlaybookItem = z.infer<typeof PlaybookItem>;

const schedule = CreateScheduleBody.shape;
export const ScheduleItem = z.strictObject({
  name: schedule.name,
  prompt: schedule.prompt,
  schedule_type: schedule.schedule_type,
  frequency: schedule.frequency,
  scheduled_at: schedule.scheduled_at,
  enabled: z.boolean().optional(),
  notify_on: schedule.notify_on,
  tags: TagList.optional(),
  bypass_approval: z.boolean().optional(),
  /** The title of one of the organization's playbooks (or an enterprise playbook). */
  playbook: z.string().min(1).max(200).nullish(),
});
export type ScheduleItem = z.infer<typeof ScheduleItem>;

/** Types a document can create a secret with (the deprecated dictionary is read-only). */
export const SECRET_TYPES_FOR_DOCUMENT = SECRET_TYPES;

const secret = CreateSecretBody.shape;
export const SecretItem = z.strictObject({
  key: secret.key,
  type: z.enum(SECRET_TYPES, { message: `type must be ${SECRET_TYPES.join(', ')}` }),
  /** Never the value: the environment variable the apply reads it from. */
  value_from_env: EnvName,
  note: secret.note,
  is_sensitive: z.boolean().optional(),
});
export type SecretItem = z.infer<typeof SecretItem>;

export const IdpGroupItem = z.strictObject({
  name: IdpGroupName,
  /** The role its members get at this level; null: registered without a role. */
  role: RoleName.nullish(),
});
export type IdpGroupItem = z.infer<typeof IdpGroupItem>;

export const ServiceUserItem = z.strictObject({
  name: CreateServiceUserBody.shape.name,
  /** Its enterprise-level role, by name. */
  role: RoleName.nullish(),
  /** Days its credential lives, applied when it is created (an existing credential's lifetime cannot change). */
  lifetime_days: CreateServiceUserBody.shape.lifetime_days,
});
export type ServiceUserItem = z.infer<typeof ServiceUserItem>;

const SET_MAX = 5_000;

/** What an organization and a fragment may say. */
const orgSettings = {
  /** The organization's ACU limit per billing cycle; null: none. */
  acu_limit: AcuLimitValue('acu_limit').nullish(),
  session_acu_limit: AcuLimitValue('session_acu_limit').nullish(),
  /** The whole list of allowed session tags (empty: any tag). */
  allowed_tags: z
    .array(Tag)
    .max(ORG_TAG_LIMITS.tags, `an organization allows at most ${fmt(ORG_TAG_LIMITS.tags)} tags`)
    .optional(),
  default_tag: Tag.nullish(),
  /** The organization's whole set of git permissions. */
  git_permissions: z.array(GitPermissionItem).max(SET_MAX).optional(),
  notes: setOf(NoteItem, SET_MAX, 'notes').optional(),
  playbooks: setOf(PlaybookItem, SET_MAX, 'playbooks').optional(),
  schedules: setOf(ScheduleItem, SET_MAX, 'schedules').optional(),
  secrets: setOf(SecretItem, SET_MAX, 'secrets').optional(),
  /** IdP groups' roles in this organization. */
  idp_groups: setOf(IdpGroupItem, SET_MAX, 'IdP groups').optional(),
};

export const Fragment = z.strictObject(orgSettings);
export type Fragment = z.infer<typeof Fragment>;

const FragmentName = z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'a fragment name is 1–64 letters, digits, _ . -');

export const OrganizationItem = z.strictObject({
  name: OrganizationName,
  /** Fragments merged in order before this organization's own settings, which override them. */
  include: z
    .array(FragmentName)
    .max(
      CONFIG_DOCUMENT_LIMITS.includesPerOrganization,
      `at most ${CONFIG_DOCUMENT_LIMITS.includesPerOrganization} fragments per organization`,
    )
    .optional(),
  ...orgSettings,
});
export type OrganizationItem = z.infer<typeof OrganizationItem>;

export const OrgGroupItem = z.strictObject({
  /** The group's organizations, by name. */
  organizations: z.array(OrganizationName).max(ORG_GROUP_LIMITS.orgsPerGroup),
  max_cycle_acus: AcuLimitValue('max_cycle_acus').nullish(),
});

export const EnterpriseSettings = z.strictObject({
  /** The enterprise's ACU limit per billing cycle; null: none. */
  acu_limit: AcuLimitValue('acu_limit').nullish(),
  /** The whole IP access list (empty: no restriction). */
  ip_access_list: IpRanges.optional(),
  /** The whole set of org group limits, by group name. */
  org_group_limits: z
    .record(z.string().min(1).max(ORG_GROUP_LIMITS.name), OrgGroupItem)
    .refine((r) => Object.keys(r).length <= ORG_GROUP_LIMITS.groups, `at most ${ORG_GROUP_LIMITS.groups} groups`)
    .optional(),
  /** IdP groups registered with the enterprise, with their enterprise-level role. */
  idp_groups: setOf(IdpGroupItem, SET_MAX, 'IdP groups').optional(),
  service_users: setOf(ServiceUserItem, SET_MAX, 'service users').optional(),
  /** Enterprise-wide playbooks. */
  playbooks: setOf(PlaybookItem, SET_MAX, 'playbooks').optional(),
});
export type EnterpriseSettings = z.infer<typeof EnterpriseSettings>;

export const ConfigDocument = z.strictObject({
  $schema: z.string().max(500).optional(),
  version: z.literal(CONFIG_DOCUMENT_VERSION, { message: `version must be ${CONFIG_DOCUMENT_VERSION}` }),
  enterprise: EnterpriseSettings.optional(),
  fragments: z
    .record(FragmentName, Fragment)
    .refine(
      (r) => Object.keys(r).length <= CONFIG_DOCUMENT_LIMITS.fragments,
      `at most ${CONFIG_DOCUMENT_LIMITS.fragments} fragments`,
    )
    .optional(),
  organizations: setOf(OrganizationItem, SET_MAX, 'organizations').optional(),
});
export type ConfigDocument = z.infer<typeof ConfigDocument>;

/** The JSON Schema of the document (editors: `# yaml-language-server: $schema=…`, or `$schema` in JSON). */
export function configDocumentJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(ConfigDocument, { io: 'input', unrepresentable: 'any' }),
    title: 'Agent Platform Console configuration document',
  };
}
