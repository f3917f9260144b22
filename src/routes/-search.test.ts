/**
 * The routes' zod-free search validators (./-search.ts) against the zod schemas the screens' types come from:
 * the same output (same keys, same values) for every search a URL or a navigation can give, so moving
 * validation off the first screen changed nothing a screen sees.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RANGE_PRESETS } from '@/api/billing-day';
import { HYPERVISOR_STATUS_FILTERS } from '@/api/operations/capacity';
import { FINDING_SEVERITIES, FINDING_STATUSES } from '@/api/operations/code-scans';
import { GUARDRAIL_ACTIONS, VIOLATION_ORDERS } from '@/api/operations/guardrails';
import { SNAPSHOT_BUILD_STATUSES } from '@/api/operations/snapshot-builds';
import { AUDIT_LOG_ORDERS, NOTE_ACCESS_TYPES, SESSION_ORIGINS } from '@/api/values';
import * as auditLogs from '@/features/audit-logs/search';
import * as codeScans from '@/features/code-scans/search';
import * as guardrails from '@/features/guardrails/search';
import { NotesSearch } from '@/features/knowledge/search';
import * as members from '@/features/members/search';
import { PlaybooksSearch } from '@/features/playbooks/search';
import { sessionSearchSchema } from '@/features/sessions/filters';
import { DEFAULT_PRESET, UsageSearch } from '@/features/usage/search';
import { parseSearch } from '@/lib/search-params';
import * as lean from './-search';

/** Any of the validators, called with whatever a URL gives. */
type AnyValidator = { readonly keys: readonly string[] } & ((input: never) => unknown);
const run = (validator: AnyValidator, input: Record<string, unknown>) =>
  (validator as unknown as (input: Record<string, unknown>) => unknown)(input);

/** The schemas the routes used before (inline in their route files), kept here as the reference. */
const inline = {
  capacity: z.object({ status: z.enum(HYPERVISOR_STATUS_FILTERS).optional().catch(undefined) }),
  roles: z.object({ view: z.enum(['list', 'matrix']).optional().catch(undefined) }),
  newSession: z.object({ playbook: z.string().min(1).max(200).optional().catch(undefined) }),
  builds: z.object({
    status: z.enum(SNAPSHOT_BUILD_STATUSES).optional().catch(undefined),
    active: z
      .union([z.boolean(), z.enum(['true', '1']).transform(() => true)])
      .optional()
      .transform((v) => v || undefined)
      .catch(undefined),
  }),
  gitPermissions: z.object({
    q: z.string().max(200).catch('').default(''),
    sort: z
      .enum(['matcher', 'type', 'connection', 'read_only', 'created_at'])
      .catch('created_at')
      .default('created_at'),
    dir: z.enum(['asc', 'desc']).catch('asc').default('asc'),
    access: z.enum(['all', 'read_only', 'read_write']).catch('all').default('all'),
  }),
  gitPermissionHistory: z.object({
    from: z.coerce.number().int().positive().optional().catch(undefined),
    to: z.coerce.number().int().positive().optional().catch(undefined),
  }),
};

const PAIRS: Array<[string, z.ZodObject, AnyValidator]> = [
  ['audit logs', auditLogs.AuditLogSearch, lean.auditLogSearch],
  ['guardrail violations', guardrails.ViolationSearch, lean.violationSearch],
  ['code-scan findings', codeScans.FindingsSearch, lean.findingsSearch],
  ['members', members.MembersSearch, lean.membersSearch],
  ['organization members', members.OrgMembersSearch, lean.orgMembersSearch],
  ['service users', members.ServiceUsersSearch, lean.serviceUsersSearch],
  ['access', members.AccessSearch, lean.accessSearch],
  ['knowledge', NotesSearch, lean.notesSearch],
  ['organization knowledge', NotesSearch.omit({ access_type: true }), lean.orgNotesSearch],
  ['playbooks', PlaybooksSearch, lean.playbooksSearch],
  ['organization playbooks', PlaybooksSearch.omit({ access_type: true }), lean.orgPlaybooksSearch],
  ['sessions', sessionSearchSchema, lean.sessionSearch],
  ['new session', inline.newSession, lean.newSessionSearch],
  ['usage', UsageSearch, lean.usageSearch],
  ['capacity', inline.capacity, lean.capacitySearch],
  ['roles', inline.roles, lean.rolesSearch],
  ['snapshot builds', inline.builds, lean.buildsSearch],
  ['git permissions', inline.gitPermissions, lean.gitPermissionsSearch],
  ['git permission history', inline.gitPermissionHistory, lean.gitPermissionHistorySearch],
];

/** Every enum value of the screens, and near misses. */
const WORDS = [
  ...new Set<string>([
    ...Object.values(lean.VALUES).flat(),
    ...SESSION_ORIGINS,
    'list',
    'matrix',
    'chart',
    'table',
    'direct',
    'idp',
    'principal',
    'permission',
    'matcher',
    'type',
    'connection',
    'read_only',
    'read_write',
    'true',
    'false',
    '1',
    '0',
    'ALL',
    'Desc',
    ' asc',
    'unknown',
  ]),
];

/** Raw URL values, read as the router reads them (`parseSearch`): strings, numbers, lists, objects. */
const RAW = [
  '',
  ' ',
  '  padded text  ',
  'a',
  'x'.repeat(199),
  'x'.repeat(200),
  'x'.repeat(201),
  ' ' + 'y'.repeat(200) + ' ',
  'z'.repeat(299),
  'z'.repeat(300),
  'z'.repeat(301),
  ' ' + 'w'.repeat(300) + ' ',
  'q'.repeat(400),
  'org-1',
  'org-',
  'ORG-1',
  'xorg-1',
  'member.added',
  'user:add-role',
  'bad action!',
  'a'.repeat(100),
  'a'.repeat(101),
  'someone@example.com',
  'Someone@Example.COM',
  ' someone@example.com ',
  'not an address',
  'critical,high',
  'critical, high ,critical',
  'critical,unknown',
  'unknown',
  ',,,',
  ' , ',
  'a,,b',
  `${'x'.repeat(201)},ok`,
  '0',
  '1',
  '-1',
  '1.5',
  '1e3',
  '1700000000',
  '9007199254740991',
  '9007199254740993',
  '"123"',
  '"quoted"',
  '""',
  'null',
  'true',
  'false',
  '[1,2]',
  '["critical","low"]',
  '["a, b","a"]',
  '[]',
  '[null]',
  '{"a":1}',
  '{}',
  '{broken',
  ...WORDS,
];

const VALUES: unknown[] = [
  ...RAW.map((raw) => parseSearch(`?v=${encodeURIComponent(raw)}`).v),
  // What a navigation may pass before the URL is written.
  undefined,
  null,
  true,
  false,
  0,
  -0,
  1,
  -1,
  2,
  1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  2 ** 53,
  [],
  ['a', 'b'],
  [1, 'critical'],
  {},
];

function check(schema: z.ZodObject, validator: AnyValidator, input: Record<string, unknown>) {
  expect(run(validator, input), JSON.stringify(input)).toStrictEqual(schema.parse(input));
}

describe('route search validators without zod', () => {
  it.each(PAIRS)('%s: the same keys as the zod schema', (_, schema, validator) => {
    expect([...validator.keys].sort()).toEqual(Object.keys(schema.shape).sort());
  });

  it.each(PAIRS)('%s: the same result for every value of every key', (_, schema, validator) => {
    check(schema, validator, {});
    check(schema, validator, { unrelated: 'x', __proto__: 'y' });
    for (const key of validator.keys) {
      for (const value of VALUES) check(schema, validator, { [key]: value });
      check(schema, validator, { [key]: undefined, other: 1 });
    }
  });

  it.each(PAIRS)('%s: the same result for whole searches', (_, schema, validator) => {
    // Every key at once, with values cycling so that keys meet different values.
    for (let i = 0; i < VALUES.length; i++) {
      const input = Object.fromEntries(validator.keys.map((k, j) => [k, VALUES[(i + j * 7) % VALUES.length]]));
      check(schema, validator, input);
    }
  });

  it('reads a URL as the zod schema does', () => {
    const url = '?range=custom&time_after=1700000000&time_before=1700003600&order=asc&action=member.added&org_id=org-1';
    expect(run(lean.auditLogSearch, parseSearch(url))).toStrictEqual(auditLogs.AuditLogSearch.parse(parseSearch(url)));
    expect(run(lean.auditLogSearch, parseSearch(url))).toMatchObject({ range: 'custom', time_after: 1700000000 });
  });

  it('keeps the enum values of the contract and the screens', () => {
    const same = (a: readonly string[], b: readonly string[]) => expect([...a].sort()).toEqual([...b].sort());
    same(lean.VALUES.auditLogRanges, auditLogs.RANGES);
    same(lean.VALUES.orders, AUDIT_LOG_ORDERS);
    same(lean.VALUES.orders, VIOLATION_ORDERS);
    same(lean.VALUES.violationRanges, guardrails.RANGES);
    same(lean.VALUES.guardrailActions, GUARDRAIL_ACTIONS);
    same(lean.VALUES.findingSeverities, FINDING_SEVERITIES);
    same(lean.VALUES.findingStatuses, FINDING_STATUSES);
    same(lean.VALUES.noteAccessTypes, NOTE_ACCESS_TYPES);
    same(lean.VALUES.playbookAccessTypes, PlaybooksSearch.shape.access_type.unwrap().unwrap().options);
    same(lean.VALUES.usagePresets, RANGE_PRESETS);
    same(lean.VALUES.buildStatuses, SNAPSHOT_BUILD_STATUSES);
    same(lean.VALUES.hypervisorStatusFilters, HYPERVISOR_STATUS_FILTERS);
    expect(lean.VIOLATION_DEFAULTS).toEqual(guardrails.VIOLATION_SEARCH_DEFAULTS);
    expect(lean.DEFAULT_USAGE_PRESET).toBe(DEFAULT_PRESET);
  });
});

describe('route loader dependencies without zod', () => {
  const searches = (schema: z.ZodObject, keys: readonly string[]) =>
    VALUES.map((_, i) =>
      schema.parse(Object.fromEntries(keys.map((k, j) => [k, VALUES[(i + j * 5) % VALUES.length]]))),
    );

  it('audit logs: the filters of the explorer', () => {
    const extra = [
      { range: 'custom', order: 'asc', time_after: 5, time_before: 9, action: 'a.b', user_id: 'u', org_id: 'org-1' },
      { range: '24h', order: 'desc', time_after: 5, service_user_id: 's' },
    ];
    for (const s of [...searches(auditLogs.AuditLogSearch, lean.auditLogSearch.keys), ...extra]) {
      const search = s as auditLogs.AuditLogSearch;
      expect(lean.auditLogFilters(search)).toStrictEqual(auditLogs.toFilters(search));
    }
  });

  it('guardrails: the filters of the violations screens', () => {
    const extra = [
      { range: 'custom', order: 'asc', chart: 'table', time_after: 5, time_before: 9, guardrail: 'g', session: 's' },
      { range: '7d', order: 'desc', chart: 'chart', action: 'warn_user', time_before: 9 },
    ];
    for (const s of [...searches(guardrails.ViolationSearch, lean.violationSearch.keys), ...extra]) {
      const search = s as guardrails.ViolationSearch;
      expect(lean.violationFilters(search)).toStrictEqual(guardrails.toFilters(search));
    }
  });

  it('code scans: the filters of the findings screen', () => {
    const extra = [{ severity: 'critical,high', status: 'open', repository: 'acme/web', org: 'org-1,org-2' }];
    for (const s of [...searches(codeScans.FindingsSearch, lean.findingsSearch.keys), ...extra]) {
      const search = s as codeScans.FindingsSearch;
      expect(lean.findingFilters(search)).toStrictEqual(codeScans.toFilters(search));
    }
  });

  it('members: the email the API looks up', () => {
    for (const q of [undefined, '', 'ann', 'Ann@Example.com', 'a@b', 'a b@c.d', 'x@y.z', '@y.z']) {
      expect(lean.memberEmail({ q })).toBe(members.apiEmail({ q }));
    }
  });
});
