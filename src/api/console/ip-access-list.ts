/**
 * The console's safe IP access list endpoints (`/console/ip-access-list...`): the current list with its version
 * token and the addresses the console reaches the API from; a checked replacement (409 with the difference on
 * a concurrent change, 422 when the list would lock the console out unless the enterprise's name is typed);
 * the history of changes made through the console, each with its diff, and restore.
 *
 * `diffIpRanges` and `lockedOutAddresses` are shared by the server (which decides) and the screen (which warns
 * before sending), so both say the same thing.
 */
import { z } from 'zod';
import { queryInt, UnixSeconds } from '../conventions';
import { ipListAllows, normalizeIpRange } from '../ip-ranges';
import { IP_ACCESS_LIST_LIMITS, IpRanges } from '../operations/ip-access-list';
import { pageOf } from '../page';
import { defineConsoleOperations } from './define';
import { madeByFields } from './session';

// ---------------------------------------------------------------- shared rules

/** What turns one list into another, by range (`10.0.0.5/8` and `10.0.0.0/8` are the same range). */
export interface IpRangesDiff {
  /** Entries of `to` whose range `from` lacks, as `to` writes them. */
  added: string[];
  /** Entries of `from` whose range `to` lacks, as `from` writes them. */
  removed: string[];
}

const keyOf = (entry: string) => normalizeIpRange(entry) ?? entry.trim();

export function diffIpRanges(from: readonly string[], to: readonly string[]): IpRangesDiff {
  const fromKeys = new Set(from.map(keyOf));
  const toKeys = new Set(to.map(keyOf));
  const once = (list: readonly string[], keep: (k: string) => boolean) => {
    const seen = new Set<string>();
    return list.filter((e) => {
      const k = keyOf(e);
      if (seen.has(k) || !keep(k)) return false;
      seen.add(k);
      return true;
    });
  };
  return { added: once(to, (k) => !fromKeys.has(k)), removed: once(from, (k) => !toKeys.has(k)) };
}

/**
 * The addresses a list would no longer admit. An empty list admits every address (no restriction), so it
 * locks nobody out.
 */
export function lockedOutAddresses(list: readonly string[], addresses: readonly string[]): string[] {
  if (list.length === 0) return [];
  return addresses.filter((a) => !ipListAllows(list, a));
}

// ---------------------------------------------------------------- answers

export const ConsoleIpAccessList = z.looseObject({
  ip_ranges: z.array(z.string()),
  /** A token of the list as the API holds it; an apply sends back the one its edit started from. */
  version: z.string(),
  count: z.number().int(),
  /**
   * The addresses the console reaches the API from (CONSOLE_EGRESS_IPS, and loopback with the embedded
   * sandbox): a list that admits none of one of them is refused unless the enterprise's name is typed.
   */
  protected_addresses: z.array(z.string()),
  /** The name an override must type exactly; null when the console does not know it (no override possible). */
  enterprise_name: z.string().nullable(),
});
export type ConsoleIpAccessList = z.infer<typeof ConsoleIpAccessList>;

export const IP_REVISION_ACTIONS = ['replace', 'clear', 'restore'] as const;
export type IpRevisionAction = (typeof IP_REVISION_ACTIONS)[number];
export const IP_REVISION_STATUSES = ['applying', 'applied', 'failed'] as const;
export type IpRevisionStatus = (typeof IP_REVISION_STATUSES)[number];

/** One change made through the console, with what it added and removed. */
export const IpAccessListRevisionSummary = z.looseObject({
  revision_id: z.number().int(),
  created_at: UnixSeconds,
  completed_at: UnixSeconds.nullable(),
  action: z.enum(IP_REVISION_ACTIONS),
  status: z.enum(IP_REVISION_STATUSES),
  /** The revision whose list a restore brought back. */
  restored_from: z.number().int().nullable(),
  previous_version: z.string(),
  previous_count: z.number().int(),
  result_version: z.string().nullable(),
  result_count: z.number().int().nullable(),
  /** Ranges the change added and removed (planned ones while applying or when it failed). */
  added: z.array(z.string()),
  removed: z.array(z.string()),
  /** The protected addresses the admin chose to lock out by typing the enterprise's name (usually empty). */
  locked_out: z.array(z.string()),
  error: z.string().nullable(),
  /** Who made the change (a restore: who restored); null for revisions recorded before the console knew. */
  ...madeByFields,
});
export type IpAccessListRevisionSummary = z.infer<typeof IpAccessListRevisionSummary>;

export const IpAccessListRevision = IpAccessListRevisionSummary.extend({
  previous: z.array(z.string()),
  result: z.array(z.string()).nullable(),
});
export type IpAccessListRevision = z.infer<typeof IpAccessListRevision>;

export const IpRevisionPage = pageOf(IpAccessListRevisionSummary);
export type IpRevisionPage = z.infer<typeof IpRevisionPage>;

/** What an apply or restore answers: the list after it and the revision it made (null when nothing changed). */
export const ConsoleIpApplyResult = ConsoleIpAccessList.extend({
  revision: IpAccessListRevisionSummary.nullable(),
  unchanged: z.boolean(),
});
export type ConsoleIpApplyResult = z.infer<typeof ConsoleIpApplyResult>;

/** The body of a 409: the list as it is now and, when the request carried its base, what changed since. */
export const IpAccessListConflict = z.looseObject({
  status: z.literal(409),
  title: z.string(),
  detail: z.string(),
  base_version: z.string(),
  current_version: z.string(),
  current: z.array(z.string()),
  /** base → current. */
  changes: z.object({ added: z.array(z.string()), removed: z.array(z.string()) }).nullable(),
});
export type IpAccessListConflict = z.infer<typeof IpAccessListConflict>;

/** The body of the 422 that refuses a list locking the console out. */
export const IpAccessListLockout = z.looseObject({
  status: z.literal(422),
  detail: z.string(),
  reason: z.literal('lockout'),
  /** The protected addresses the list would no longer admit. */
  locked_out: z.array(z.string()),
  protected_addresses: z.array(z.string()),
  /** False when the console does not know the enterprise's name: no override through the console. */
  override_available: z.boolean(),
});
export type IpAccessListLockout = z.infer<typeof IpAccessListLockout>;

// ---------------------------------------------------------------- requests

export const ENTERPRISE_NAME_MAX = 200;

const Base = {
  /** The version the edit started from (from the GET); a different current list answers 409. */
  base_version: z
    .string({ message: 'base_version is required: the version of the list the edit started from' })
    .min(1, 'base_version is required: the version of the list the edit started from')
    .max(128),
  /** The list the edit started from, so a 409 can say what changed since. */
  base: z.array(z.string().max(IP_ACCESS_LIST_LIMITS.entryLength)).max(IP_ACCESS_LIST_LIMITS.entries).optional(),
  /**
   * The enterprise's name, typed exactly, to apply a list that leaves out one of the console's own addresses.
   * Ignored when the list locks nobody out.
   */
  override_enterprise_name: z.string().max(ENTERPRISE_NAME_MAX).optional(),
};

/** PUT /console/ip-access-list: the whole new list (empty: no restriction). */
export const ConsoleIpApplyRequest = z.strictObject({ ...Base, ip_ranges: IpRanges });
export type ConsoleIpApplyRequest = z.input<typeof ConsoleIpApplyRequest>;

/** POST /console/ip-access-list/revisions/{revision_id}/restore. */
export const ConsoleIpRestoreRequest = z.strictObject({
  ...Base,
  /** Which list of the revision to bring back: the one before the change (default) or its result. */
  set: z.enum(['previous', 'result']).default('previous'),
});
export type ConsoleIpRestoreRequest = z.input<typeof ConsoleIpRestoreRequest>;

const RevisionNumber = z
  .string()
  .regex(/^\d{1,12}$/, 'Not a revision number')
  .transform(Number);

export const IP_REVISIONS_PAGE_SIZE = 20;

const BASE = '/console/ip-access-list';

export const consoleIpAccessListOperations = defineConsoleOperations({
  'console.ipAccessList.get': {
    id: 'console.ipAccessList.get',
    method: 'GET',
    permission: 'ManageEnterpriseSettings',
    path: BASE,
    summary: "The enterprise's IP access list with its version token and the console's own addresses",
    response: ConsoleIpAccessList,
  },
  'console.ipAccessList.apply': {
    id: 'console.ipAccessList.apply',
    method: 'PUT',
    permission: 'ManageEnterpriseSettings',
    path: BASE,
    summary:
      'Replace the list, checked against the version the edit started from (409) and against locking the console out (422 unless the enterprise name is typed)',
    body: ConsoleIpApplyRequest,
    response: ConsoleIpApplyResult,
  },
  'console.ipAccessList.revisions.list': {
    id: 'console.ipAccessList.revisions.list',
    method: 'GET',
    permission: 'ManageEnterpriseSettings',
    path: `${BASE}/revisions`,
    summary: 'The history of changes made through the console, newest first, each with its diff',
    query: z.object({
      first: queryInt({ min: 1, max: 200, name: 'first' }).default(IP_REVISIONS_PAGE_SIZE),
      after: z
        .string()
        .regex(/^\d{1,12}$/, 'after must be an end_cursor of this list')
        .transform(Number)
        .optional(),
    }),
    response: IpRevisionPage,
  },
  'console.ipAccessList.revisions.get': {
    id: 'console.ipAccessList.revisions.get',
    method: 'GET',
    permission: 'ManageEnterpriseSettings',
    path: `${BASE}/revisions/{revision_id}`,
    summary: 'One revision with its previous and resulting lists',
    params: z.object({ revision_id: RevisionNumber }),
    response: IpAccessListRevision,
  },
  'console.ipAccessList.revisions.restore': {
    id: 'console.ipAccessList.revisions.restore',
    method: 'POST',
    permission: 'ManageEnterpriseSettings',
    path: `${BASE}/revisions/{revision_id}/restore`,
    summary: "Bring back a revision's previous (or resulting) list, with the same checks as an apply",
    params: z.object({ revision_id: RevisionNumber }),
    body: ConsoleIpRestoreRequest,
    response: ConsoleIpApplyResult,
  },
});
