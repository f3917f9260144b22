/**
 * The routes' URL search validators and loader dependencies, without zod.
 *
 * The route tree is eager (only loaders and components are split off), so whatever a route's `validateSearch`,
 * `search.middlewares` and `loaderDeps` import is on the first screen. The screens' zod schemas
 * (`src/features/<area>/search.ts`) stay the reference for the types; these readers give the same values
 * for every input, which src/routes/-search.test.ts checks against them. Only types are imported from the
 * features here: an import of a value would bring zod and the area's contract back into the shell.
 */
import type { z } from 'zod';
import type { AuditLogFilters, AuditLogSearch } from '@/features/audit-logs/search';
import type { FindingFilters, FindingsSearch } from '@/features/code-scans/search';
import type { ViolationFilters, ViolationSearch } from '@/features/guardrails/search';
import type { NotesSearch } from '@/features/knowledge/search';
import type { AccessSearch, MembersSearch, OrgMembersSearch, ServiceUsersSearch } from '@/features/members/search';
import type { PlaybooksSearch } from '@/features/playbooks/search';
import type { SessionSearch, sessionSearchSchema } from '@/features/sessions/filters';
import type { UsageSearch } from '@/features/usage/search';
import type { TableSearch } from '@/features/git-permissions/permissions-table';
import type { RangePreset } from '@/api/billing-day';
import type { SnapshotBuildStatus } from '@/api/operations/snapshot-builds';
import type { HypervisorStatusFilter } from '@/api/operations/capacity';
import { commaList, integer, oneOf, oneOfOr, searchValidator, text, type SearchField } from '@/lib/search-params';

/** Values of the screens' enums (each checked against the contract or the screen in -search.test.ts). */
export const VALUES = {
  auditLogRanges: ['all', '1h', '24h', '7d', '30d', 'custom'],
  orders: ['asc', 'desc'],
  violationRanges: ['all', '24h', '7d', '30d', '90d', 'custom'],
  guardrailActions: ['log_only', 'warn_user', 'block_message', 'kill_session'],
  findingSeverities: ['critical', 'high', 'medium', 'low'],
  findingStatuses: ['open', 'dismissed', 'resolved'],
  noteAccessTypes: ['org', 'enterprise'],
  playbookAccessTypes: ['enterprise', 'org'],
  usagePresets: ['this_cycle', 'last_cycle', '7d', '30d', '90d'],
  buildStatuses: ['pending', 'running', 'succeeded', 'failed', 'cancelled'],
  hypervisorStatusFilters: ['available', 'restarting', 'disconnected', 'terminated', 'draining', 'all'],
} as const satisfies Record<string, readonly string[]>;

// ---- Shared readers -------------------------------------------------------------------------------------

/** An id: trimmed, 1 to 200 characters (guardrail screens). */
const trimmedId: SearchField<string | undefined> = (v) => {
  const s = typeof v === 'string' ? v.trim() : v;
  return typeof s === 'string' && s.length >= 1 && s.length <= 200 ? s : undefined;
};

/** Free text of the knowledge and playbook lists: a string, trimmed; empty is no filter. */
const trimmedText: SearchField<string | undefined> = (v) => (typeof v === 'string' ? v.trim() || undefined : undefined);

/** Free text of the members screens: a string or a number, trimmed, at most 300 characters; empty is no filter. */
const memberText: SearchField<string | undefined> = (v) => {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  const s = String(v).trim();
  return s ? s.slice(0, 300) : undefined;
};

// ---- Audit logs -----------------------------------------------------------------------------------------

export const auditLogSearch = searchValidator<z.input<typeof AuditLogSearch>, AuditLogSearch>({
  range: oneOfOr(VALUES.auditLogRanges, 'all'),
  time_after: integer(),
  time_before: integer(),
  order: oneOfOr(VALUES.orders, 'desc'),
  action: text({ pattern: /^[A-Za-z0-9_.:-]{1,100}$/ }),
  service_user_id: text({ min: 1, max: 200 }),
  user_id: text({ min: 1, max: 200 }),
  org_id: text({ pattern: /^org-/ }),
});

/** The audit-log query of a search (as `toFilters` of the explorer). */
export function auditLogFilters(s: AuditLogSearch): AuditLogFilters {
  const f: AuditLogFilters = { range: s.range, order: s.order };
  if (s.range === 'custom') {
    if (s.time_after !== undefined) f.time_after = s.time_after;
    if (s.time_before !== undefined) f.time_before = s.time_before;
  }
  if (s.action) f.action = s.action;
  if (s.service_user_id) f.service_user_id = s.service_user_id;
  if (s.user_id) f.user_id = s.user_id;
  if (s.org_id) f.org_id = s.org_id;
  return f;
}

// ---- Guardrail violations -------------------------------------------------------------------------------

export const violationSearch = searchValidator<z.input<typeof ViolationSearch>, ViolationSearch>({
  guardrail: trimmedId,
  action: oneOf(VALUES.guardrailActions),
  session: trimmedId,
  range: oneOfOr(VALUES.violationRanges, 'all'),
  time_after: integer({ coerce: true }),
  time_before: integer({ coerce: true }),
  order: oneOfOr(VALUES.orders, 'desc'),
  chart: oneOfOr(['chart', 'table'], 'chart'),
});

/** Defaults the guardrail routes strip from the URL (as `VIOLATION_SEARCH_DEFAULTS`). */
export const VIOLATION_DEFAULTS = { range: 'all', order: 'desc', chart: 'chart' } as const;

/** The violations query of a search (as `toFilters` of the guardrail screens). */
export function violationFilters(s: ViolationSearch): ViolationFilters {
  const f: ViolationFilters = { range: s.range, order: s.order };
  if (s.guardrail) f.guardrail_id = s.guardrail;
  if (s.action) f.action = s.action;
  if (s.session) f.session_id = s.session;
  if (s.range === 'custom') {
    if (s.time_after !== undefined) f.time_after = s.time_after;
    if (s.time_before !== undefined) f.time_before = s.time_before;
  }
  return f;
}

// ---- Code-scan findings ---------------------------------------------------------------------------------

export const findingsSearch = searchValidator<z.input<typeof FindingsSearch>, FindingsSearch>({
  severity: commaList(VALUES.findingSeverities),
  status: commaList(VALUES.findingStatuses),
  repository: (v) => {
    const s = typeof v === 'string' && v.trim() ? v.trim() : undefined;
    return s !== undefined && s.length <= 300 ? s : undefined;
  },
  org: commaList(),
});

const splitList = (value: string | undefined) => (value ? value.split(',').filter(Boolean) : []);

/** The findings query of a search (as `toFilters` of the findings screen). */
export function findingFilters(s: FindingsSearch): FindingFilters {
  const f: FindingFilters = {};
  const severity = splitList(s.severity);
  const status = splitList(s.status);
  const orgs = splitList(s.org);
  if (severity.length) f.severity = severity as FindingFilters['severity'];
  if (status.length) f.status = status as FindingFilters['status'];
  if (s.repository) f.repository = s.repository;
  if (orgs.length) f.org_ids = orgs;
  return f;
}

// ---- Members, service users, access ---------------------------------------------------------------------

export const membersSearch = searchValidator<z.input<typeof MembersSearch>, MembersSearch>({
  q: memberText,
  role: memberText,
  org: memberText,
});

export const orgMembersSearch = searchValidator<z.input<typeof OrgMembersSearch>, OrgMembersSearch>({
  q: memberText,
  role: memberText,
  via: oneOf(['direct', 'idp']),
});

export const serviceUsersSearch = searchValidator<z.input<typeof ServiceUsersSearch>, ServiceUsersSearch>({
  inactive: (v) => (v === true || v === 'true' ? 'true' : undefined),
});

export const accessSearch = searchValidator<z.input<typeof AccessSearch>, AccessSearch>({
  view: oneOf(['principal', 'permission']),
  principal: memberText,
  permission: memberText,
  org: memberText,
});

/** The `email` the members list asks the API for: a whole address typed in the search box (as `apiEmail`). */
export function memberEmail(search: { q?: string | undefined }): string | undefined {
  return search.q && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(search.q) ? search.q.toLowerCase() : undefined;
}

// ---- Knowledge, playbooks -------------------------------------------------------------------------------

export const notesSearch = searchValidator<z.input<typeof NotesSearch>, NotesSearch>({
  search: trimmedText,
  folder_path: trimmedText,
  pinned_repo: trimmedText,
  access_type: oneOf(VALUES.noteAccessTypes),
});

/** The organization's list has no access_type filter: it holds the organization's org notes only. */
export const orgNotesSearch = searchValidator<
  Omit<z.input<typeof NotesSearch>, 'access_type'>,
  Omit<NotesSearch, 'access_type'>
>({ search: trimmedText, folder_path: trimmedText, pinned_repo: trimmedText });

export const playbooksSearch = searchValidator<z.input<typeof PlaybooksSearch>, PlaybooksSearch>({
  search: trimmedText,
  access_type: oneOf(VALUES.playbookAccessTypes),
});

/** The organization's list has no access_type filter: it holds the organization's own playbooks. */
export const orgPlaybooksSearch = searchValidator<
  Omit<z.input<typeof PlaybooksSearch>, 'access_type'>,
  Omit<PlaybooksSearch, 'access_type'>
>({ search: trimmedText });

// ---- Sessions -------------------------------------------------------------------------------------------

const unixSeconds: SearchField<number | undefined> = (v) =>
  v === undefined || v === '' ? undefined : integer()(Number(v));

export const sessionSearch = searchValidator<z.input<typeof sessionSearchSchema>, SessionSearch>({
  origins: commaList(),
  status: commaList(),
  tags: commaList(),
  archived: (v) => (v === undefined ? undefined : oneOf(['true', 'false'])(String(v))),
  created_after: unixSeconds,
  created_before: unixSeconds,
  org_ids: commaList(),
});

/** `playbook`: the playbook chosen when the new-session form opens ("Start a session with this playbook"). */
export const newSessionSearch = searchValidator<{ playbook?: string }, { playbook?: string }>({
  playbook: text({ min: 1, max: 200 }),
});

// ---- Usage, capacity, roles, snapshot builds ------------------------------------------------------------

export const usageSearch = searchValidator<z.input<typeof UsageSearch>, UsageSearch>({
  range: oneOf(VALUES.usagePresets),
});

/** The usage screens' preset when the URL names none (as `DEFAULT_PRESET`). */
export const DEFAULT_USAGE_PRESET: RangePreset = '30d';

export const capacitySearch = searchValidator<{ status?: HypervisorStatusFilter }, { status?: HypervisorStatusFilter }>(
  { status: oneOf(VALUES.hypervisorStatusFilters) },
);

export const rolesSearch = searchValidator<{ view?: 'list' | 'matrix' }, { view?: 'list' | 'matrix' }>({
  view: oneOf(['list', 'matrix']),
});

/** `active`: builds still pending or running; `true` (or `1` as a string) in the URL. */
export const buildsSearch = searchValidator<
  { status?: SnapshotBuildStatus; active?: boolean | 'true' | '1' },
  { status?: SnapshotBuildStatus; active?: true }
>({
  status: oneOf(VALUES.buildStatuses),
  active: (v) => (v === true || v === 'true' || v === '1' ? true : undefined),
});

// ---- Git permissions ------------------------------------------------------------------------------------

export const gitPermissionsSearch = searchValidator<Partial<TableSearch>, TableSearch>({
  q: (v) => (v === undefined ? '' : (text({ max: 200 })(v) ?? '')),
  sort: oneOfOr(['matcher', 'type', 'connection', 'read_only', 'created_at'], 'created_at'),
  dir: oneOfOr(VALUES.orders, 'asc'),
  access: oneOfOr(['all', 'read_only', 'read_write'], 'all'),
});

/** The revision range of the history (`from`, `to`: revision numbers). */
export const gitPermissionHistorySearch = searchValidator<
  { from?: unknown; to?: unknown },
  { from?: number; to?: number }
>({
  from: integer({ min: 1, coerce: true }),
  to: integer({ min: 1, coerce: true }),
});
